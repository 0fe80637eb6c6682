// The small XML scanner of the frame reader (xml_scan.h): ipcc reads back
// only the VTK XML it writes (src/output/vtk.c), so it needs element tags
// with quoted attributes, nothing more.
//
// A tag is found by its '<'; <?...?>, <!...> and <!--...--> are skipped
// whole. A tag's end is the first '>' outside a quoted attribute value, so
// a '>' inside quotes does not end it. The scanner never reads past `end`:
// a tag or comment cut off by it is reported (-1) with its start, so the
// caller can name the line; nothing is allocated while scanning.
// Attributes are decoded only when asked for: the five predefined entities
// and character references below 128 (what ipcc's writer may emit in a file
// name); anything else after '&' is refused as malformed rather than passed
// through. Failure modes: malformed attributes or entities (IPCC_ERR_PARSE,
// naming file, line and element), out of memory (IPCC_ERR_NO_MEMORY).
#include "output/xml_scan.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "base/core.h"

int ipcc_xml_next_tag(const char *p, const char *end, ipcc_xml_tag *t) {
    for (;;) {
        p = p < end ? memchr(p, '<', (size_t)(end - p)) : NULL;
        if (!p) return 0;
        t->start = p;
        if (end - p >= 4 && !memcmp(p, "<!--", 4)) {
            const char *q = p + 4;
            while (end - q >= 3 && memcmp(q, "-->", 3))
                q++;
            if (end - q < 3) return -1;
            p = q + 3;
            continue;
        }
        if (end - p >= 2 && (p[1] == '?' || p[1] == '!')) {
            const char *q = memchr(p, '>', (size_t)(end - p));
            if (!q) return -1;
            p = q + 1;
            continue;
        }
        break;
    }
    const char *q = p + 1;
    t->closing = q < end && *q == '/';
    if (t->closing) q++;
    t->name = q;
    while (q < end && !isspace((unsigned char)*q) && *q != '/' && *q != '>')
        q++;
    t->name_len = (size_t)(q - t->name);
    t->attrs = q;
    char quote = 0;
    for (; q < end && (quote || *q != '>'); q++) {
        if (quote) {
            if (*q == quote) quote = 0;
        } else if (*q == '"' || *q == '\'') {
            quote = *q;
        }
    }
    if (q >= end) return -1;
    t->empty = q > t->attrs && q[-1] == '/';
    t->attrs_end = t->empty ? q - 1 : q;
    t->end = q + 1;
    return 1;
}

bool ipcc_xml_is(const ipcc_xml_tag *t, const char *name) {
    return t->name_len == strlen(name) && !memcmp(t->name, name, t->name_len);
}

int ipcc_xml_line(const char *text, const char *p) {
    int line = 1;
    for (const char *q = text; q < p; q++)
        line += *q == '\n';
    return line;
}

/// Decode the five XML entities and &#N; / &#xN; below 128 in [s, e).
/// The malloc'ed result, or NULL (*bad set when the text is malformed).
static char *xml_unescape(const char *s, const char *e, bool *bad) {
    static const struct {
        const char *name;
        char c;
    } entities[] = {{"amp;", '&'}, {"lt;", '<'}, {"gt;", '>'}, {"quot;", '"'}, {"apos;", '\''}};
    *bad = false;
    char *out = malloc((size_t)(e - s) + 1), *o = out;
    if (!out) return NULL;
    while (s < e) {
        if (*s != '&') {
            *o++ = *s++;
            continue;
        }
        s++;
        bool done = false;
        for (size_t k = 0; k < sizeof entities / sizeof entities[0] && !done; k++) {
            size_t n = strlen(entities[k].name);
            if ((size_t)(e - s) >= n && !memcmp(s, entities[k].name, n)) {
                *o++ = entities[k].c;
                s += n;
                done = true;
            }
        }
        if (!done && s < e && *s == '#') {
            s++;
            int base = 10;
            if (s < e && (*s == 'x' || *s == 'X')) {
                base = 16;
                s++;
            }
            long v = 0;
            const char *digits = s;
            for (; s < e && v < 128; s++) {
                const int c = tolower((unsigned char)*s);
                const int d = isdigit(c) ? c - '0' : base == 16 && c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
                if (d < 0) break;
                v = v * base + d;
            }
            if (s > digits && s < e && *s == ';' && v > 0 && v < 128) {
                *o++ = (char)v;
                s++;
                done = true;
            }
        }
        if (!done) {
            free(out);
            *bad = true;
            return NULL;
        }
    }
    *o = '\0';
    return out;
}

ipcc_status ipcc_xml_attr(const char *path, const char *text, const ipcc_xml_tag *t, const char *name,
                          char **value) {
    *value = NULL;
    const char *p = t->attrs, *end = t->attrs_end;
    const size_t want = strlen(name);
    for (;;) {
        while (p < end && isspace((unsigned char)*p))
            p++;
        if (p >= end) return IPCC_OK;
        const char *an = p;
        while (p < end && !isspace((unsigned char)*p) && *p != '=')
            p++;
        const size_t alen = (size_t)(p - an);
        while (p < end && isspace((unsigned char)*p))
            p++;
        if (alen == 0 || p >= end || *p != '=') break;
        p++;
        while (p < end && isspace((unsigned char)*p))
            p++;
        if (p >= end || (*p != '"' && *p != '\'')) break;
        const char quote = *p++, *v = p;
        while (p < end && *p != quote)
            p++;
        if (p >= end) break;
        if (alen == want && !memcmp(an, name, want)) {
            bool bad;
            *value = xml_unescape(v, p, &bad);
            if (*value) return IPCC_OK;
            if (!bad) return ipcc_fail(IPCC_ERR_NO_MEMORY, "cannot read '%s': out of memory", path);
            return ipcc_fail(IPCC_ERR_PARSE, "'%s', line %d: <%.*s>: attribute %s has a malformed '&' entity",
                             path, ipcc_xml_line(text, t->start), (int)t->name_len, t->name, name);
        }
        p++;
    }
    return ipcc_fail(IPCC_ERR_PARSE, "'%s', line %d: <%.*s>: malformed attributes", path,
                     ipcc_xml_line(text, t->start), (int)t->name_len, t->name);
}

ipcc_status ipcc_xml_required(const char *path, const char *text, const ipcc_xml_tag *t, const char *name,
                              char **value) {
    ipcc_status s = ipcc_xml_attr(path, text, t, name, value);
    if (s == IPCC_OK && !*value)
        s = ipcc_fail(IPCC_ERR_PARSE, "'%s', line %d: <%.*s> has no %s attribute", path,
                      ipcc_xml_line(text, t->start), (int)t->name_len, t->name, name);
    return s;
}
