// SPDX-License-Identifier: GPL-2.0
/*
 * JSON output through json-c: every document procmem prints is built as
 * a json_object and printed here: indented (status, scan, advise) or one
 * line a document (watch --json).
 */
#include "procmem.h"

#include <json-c/json.h>

struct json_object *pm_jstr(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

struct json_object *pm_jlevel(enum level lv)
{
	return lv == LV_UNKNOWN ? NULL : json_object_new_string(level_name(lv));
}

void pm_jset(struct json_object *o, const char *key, struct json_object *v)
{
	json_object_object_add(o, key, v);
}

void pm_json_print(struct json_object *o, int pretty)
{
	int flags = JSON_C_TO_STRING_NOSLASHESCAPE |
		    (pretty ? JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED :
			      JSON_C_TO_STRING_SPACED);

	fputs(json_object_to_json_string_ext(o, flags), stdout);
	fputc('\n', stdout);
	json_object_put(o);
}
