/// A small XML scanner (xml_scan.c) for the VTK files ipcc reads back
/// (frames_read.c): element tags one by one, with their quoted attributes
/// decoded on request. Not a validating parser: no DTD, no namespaces, no
/// element content beyond what the caller slices out itself. Text is a byte
/// range [p, end) that need not be NUL-terminated.
#ifndef IPCC_XML_SCAN_H
#define IPCC_XML_SCAN_H

#include <stdbool.h>
#include <stddef.h>

#include "ipcc/base.h"

/// One element tag: pointers into the scanned text.
typedef struct ipcc_xml_tag {
    const char *start; ///< its '<'
    const char *name;  ///< element name (not NUL-terminated)
    size_t name_len;
    const char *attrs; ///< the attribute text, [attrs, attrs_end)
    const char *attrs_end;
    const char *end; ///< one past its '>'
    bool closing;    ///< </name>
    bool empty;      ///< <name .../>
} ipcc_xml_tag;

/// The next element tag in [p, end), skipping <?...?>, <!--...--> and <!...>.
/// 1 found, 0 none left, -1 a tag or comment runs past the end (t->start
/// is then its '<'). Records no message: the caller names the file.
int ipcc_xml_next_tag(const char *p, const char *end, ipcc_xml_tag *t);

/// True if tag t is element `name` (opening, closing or empty).
bool ipcc_xml_is(const ipcc_xml_tag *t, const char *name);

/// 1-based line number of p in text (for messages; linear in p - text).
int ipcc_xml_line(const char *text, const char *p);

/// Attribute `name` of tag t into *value: malloc'ed (free() it) and decoded
/// (the five XML entities, &#N; and &#xN; below 128), or NULL when t has no
/// such attribute (IPCC_OK either way). `path` and `text` (the whole file)
/// name the file and line in messages: IPCC_ERR_PARSE "'PATH', line N:
/// <NAME>: malformed attributes" or "... attribute A has a malformed '&'
/// entity", IPCC_ERR_NO_MEMORY "cannot read 'PATH': out of memory".
ipcc_status ipcc_xml_attr(const char *path, const char *text, const ipcc_xml_tag *t, const char *name,
                          char **value);

/// ipcc_xml_attr for an attribute that must be there: its absence is
/// IPCC_ERR_PARSE "'PATH', line N: <NAME> has no A attribute".
ipcc_status ipcc_xml_required(const char *path, const char *text, const ipcc_xml_tag *t, const char *name,
                              char **value);

#endif
