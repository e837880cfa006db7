// SPDX-License-Identifier: GPL-2.0
/*
 * The command line's shared conventions: one line for a usage error
 * (exit 2), getopt_long's failures said the same way by every
 * subcommand, numbers parsed whole, bytes escaped for a terminal.
 */
#include "procmem.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

int pm_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "procmem: %s%s", cmd ? cmd : "", cmd ? ": " : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (procmem %s%s--help)\n", cmd ? cmd : "", cmd ? " " : "");
	return EXIT_USAGE;
}

int pm_opt_error(const char *cmd, int c, char **argv)
{
	const char *arg = argv[optind - 1];

	if (c == ':')
		return pm_usage_error(cmd, "%s needs a value", arg);
	if (optopt && arg[0] == '-' && arg[1] != '-')
		return pm_usage_error(cmd, "unknown option '-%c'", optopt);
	return pm_usage_error(cmd, "unknown option '%s'", arg);
}

int pm_parse_long(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

void pm_escape(char *dst, size_t n, const char *src, size_t len)
{
	size_t o = 0;

	for (size_t i = 0; i < len && o + 5 <= n; i++) {
		unsigned char c = (unsigned char)src[i];

		if (c == '\\')
			o += (size_t)snprintf(dst + o, n - o, "\\\\");
		else if (c == '\n')
			o += (size_t)snprintf(dst + o, n - o, "\\n");
		else if (c == '\t')
			o += (size_t)snprintf(dst + o, n - o, "\\t");
		else if (c >= 0x20 && c < 0x7f)
			dst[o++] = (char)c;
		else
			o += (size_t)snprintf(dst + o, n - o, "\\x%02x", c);
	}
	if (n)
		dst[o < n ? o : n - 1] = 0;
}
