#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The DYNAMIC_FTRACE=n kernel: its boot self tests (function_graph among
# them), then the function and function-graph tracer checks.
. /harness/lib.sh
. /harness/tests/boot-selftests.sh
. /harness/tests/function.sh
