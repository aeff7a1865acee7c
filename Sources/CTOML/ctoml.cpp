// Walks a toml++ tree into the flat node list of ctoml.h. Strings are owned by the document.
#include "ctoml.h"

#include <toml++/toml.h>

#include <algorithm>
#include <deque>
#include <string>
#include <vector>

struct ctoml_document {
    std::vector<ctoml_node> nodes;
    std::deque<std::string> strings;  // deque: stable addresses while growing
    std::string error;
    int32_t error_line = 0;
    int32_t error_column = 0;
    bool ok = false;
};

namespace {

const std::string &keep(ctoml_document &doc, std::string value) {
    doc.strings.push_back(std::move(value));
    return doc.strings.back();
}

void add(ctoml_document &doc, const toml::node &node, int32_t parent, const toml::key *key);

void add_children(ctoml_document &doc, const toml::node &node, int32_t self) {
    if (auto table = node.as_table()) {
        // toml++ keeps keys sorted; report them in source order instead.
        std::vector<std::pair<const toml::key *, const toml::node *>> members;
        for (auto &&[k, v] : *table) members.emplace_back(&k, &v);
        std::stable_sort(members.begin(), members.end(), [](auto &a, auto &b) {
            auto sa = a.first->source().begin, sb = b.first->source().begin;
            return sa.line != sb.line ? sa.line < sb.line : sa.column < sb.column;
        });
        for (auto &[k, v] : members) add(doc, *v, self, k);
    } else if (auto array = node.as_array()) {
        for (auto &&element : *array) add(doc, element, self, nullptr);
    }
}

void add(ctoml_document &doc, const toml::node &node, int32_t parent, const toml::key *key) {
    ctoml_node out{};
    out.parent = parent;
    out.line = static_cast<int32_t>(node.source().begin.line);
    out.column = static_cast<int32_t>(node.source().begin.column);
    if (key) {
        const std::string &k = keep(doc, std::string(key->str()));
        out.key = k.c_str();
        out.key_length = k.size();
        out.key_line = static_cast<int32_t>(key->source().begin.line);
        out.key_column = static_cast<int32_t>(key->source().begin.column);
        if (out.line == 0) {  // implicit tables have no source of their own
            out.line = out.key_line;
            out.column = out.key_column;
        }
    }
    switch (node.type()) {
    case toml::node_type::table: out.kind = CTOML_TABLE; break;
    case toml::node_type::array: out.kind = CTOML_ARRAY; break;
    case toml::node_type::string: {
        out.kind = CTOML_STRING;
        const std::string &s = keep(doc, std::string(*node.as_string()));
        out.text = s.c_str();
        out.text_length = s.size();
        break;
    }
    case toml::node_type::integer: out.kind = CTOML_INTEGER; out.integer = node.as_integer()->get(); break;
    case toml::node_type::floating_point: out.kind = CTOML_FLOAT; out.number = node.as_floating_point()->get(); break;
    case toml::node_type::boolean: out.kind = CTOML_BOOLEAN; out.boolean = node.as_boolean()->get() ? 1 : 0; break;
    default: {
        out.kind = CTOML_DATETIME;
        std::string text;
        if (auto d = node.as_date()) text = "date";
        else if (auto t = node.as_time()) text = "time";
        else text = "date-time";
        const std::string &s = keep(doc, text);
        out.text = s.c_str();
        out.text_length = s.size();
        break;
    }
    }
    doc.nodes.push_back(out);
    add_children(doc, node, static_cast<int32_t>(doc.nodes.size() - 1));
}

}  // namespace

extern "C" {

ctoml_document *ctoml_parse(const char *text, size_t length) {
    auto *doc = new ctoml_document();
    try {
        toml::table root = toml::parse(std::string_view(text, length));
        ctoml_node top{};
        top.kind = CTOML_TABLE;
        top.parent = -1;
        top.line = 1;
        top.column = 1;
        doc->nodes.push_back(top);
        add_children(*doc, root, 0);
        doc->ok = true;
    } catch (const toml::parse_error &err) {
        doc->error = std::string(err.description());
        doc->error_line = static_cast<int32_t>(err.source().begin.line);
        doc->error_column = static_cast<int32_t>(err.source().begin.column);
    } catch (const std::exception &err) {
        doc->error = err.what();
    }
    return doc;
}

int ctoml_ok(const ctoml_document *doc) { return doc->ok ? 1 : 0; }
const char *ctoml_error_message(const ctoml_document *doc) { return doc->error.c_str(); }
int32_t ctoml_error_line(const ctoml_document *doc) { return doc->error_line; }
int32_t ctoml_error_column(const ctoml_document *doc) { return doc->error_column; }
size_t ctoml_node_count(const ctoml_document *doc) { return doc->nodes.size(); }
const ctoml_node *ctoml_nodes(const ctoml_document *doc) { return doc->nodes.data(); }
void ctoml_free(ctoml_document *doc) { delete doc; }

}
