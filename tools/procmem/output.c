// SPDX-License-Identifier: GPL-2.0
/*
 * JSON through json-c: every document procmem prints is built as a
 * json_object and printed here: indented (status, scan, advise) or one
 * line a document (watch --json); every document it reads (the matrix,
 * watch --json records) is parsed here.
 */
#include "procmem.h"

#include <json-c/json.h>
#include <string.h>

struct json_object *pm_json_parse(const char *text, size_t len, char *err, size_t errlen)
{
	struct json_tokener *tok = json_tokener_new();
	struct json_object *v;
	enum json_tokener_error jerr;
	size_t end;

	if (!tok) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	v = json_tokener_parse_ex(tok, text, (int)len);
	jerr = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	if (jerr == json_tokener_continue)
		snprintf(err, errlen, "not JSON: unexpected end at byte %zu", len);
	else if (jerr != json_tokener_success)
		snprintf(err, errlen, "not JSON: %s at byte %zu", json_tokener_error_desc(jerr), end);
	else if (text[end + strspn(text + end, " \t\r\n")])
		snprintf(err, errlen, "not JSON: trailing text at byte %zu", end);
	else
		err[0] = '\0';
	json_tokener_free(tok);
	if (err[0]) {
		json_object_put(v);
		return NULL;
	}
	return v;
}

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
