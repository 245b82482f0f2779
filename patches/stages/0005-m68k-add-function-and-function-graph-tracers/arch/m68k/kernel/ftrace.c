// SPDX-License-Identifier: GPL-2.0
/*
 * Function tracer support for m68k.
 *
 * The entry points are in mcount.S; this file holds the C side of the
 * function-graph tracer.  Built without -pg: the tracer must not trace
 * itself.
 */

#include <linux/ftrace.h>
#include <linux/sched.h>

#ifdef CONFIG_FUNCTION_GRAPH_TRACER
/*
 * Called from ftrace_graph_caller with @parent pointing at the traced
 * function's return-address slot (4(%fp) of its frame) and @self_addr its
 * mcount call site.  If the graph core accepts the entry, the function
 * returns through return_to_handler, which asks the core for the real
 * return address.
 */
void prepare_ftrace_return(unsigned long *parent, unsigned long self_addr,
			   unsigned long frame_pointer)
{
	unsigned long old;

	if (unlikely(ftrace_graph_is_dead()))
		return;
	if (unlikely(atomic_read(&current->tracing_graph_pause)))
		return;

	old = *parent;
	if (!function_graph_enter(old, self_addr, frame_pointer, parent))
		*parent = (unsigned long)&return_to_handler;
}
#endif /* CONFIG_FUNCTION_GRAPH_TRACER */
