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

struct pending {
    const toml::node *node;
    int32_t parent;
    const toml::key *key;
};

// Pushes the children of `node` (index `self`) so that they pop in source order.
void push_children(std::vector<pending> &stack, const toml::node &node, int32_t self) {
    if (auto table = node.as_table()) {
        // toml++ keeps keys sorted; report them in source order instead.
        std::vector<std::pair<const toml::key *, const toml::node *>> members;
        for (auto &&[k, v] : *table) members.emplace_back(&k, &v);
        std::stable_sort(members.begin(), members.end(), [](auto &a, auto &b) {
            auto sa = a.first->source().begin, sb = b.first->source().begin;
            return sa.line != sb.line ? sa.line < sb.line : sa.column < sb.column;
        });
        for (auto it = members.rbegin(); it != members.rend(); ++it) stack.push_back({it->second, self, it->first});
    } else if (auto array = node.as_array()) {
        for (size_t i = array->size(); i-- > 0;) stack.push_back({array->get(i), self, nullptr});
    }
}

ctoml_node make_node(ctoml_document &doc, const toml::node &node, int32_t parent, const toml::key *key);

// Emits the tree below `root` in pre-order with an explicit stack: no recursion, so depth
// costs heap, not stack.
void add_tree(ctoml_document &doc, const toml::node &root) {
    std::vector<pending> stack;
    push_children(stack, root, 0);
    while (!stack.empty()) {
        pending next = stack.back();
        stack.pop_back();
        doc.nodes.push_back(make_node(doc, *next.node, next.parent, next.key));
        push_children(stack, *next.node, static_cast<int32_t>(doc.nodes.size() - 1));
    }
}

ctoml_node make_node(ctoml_document &doc, const toml::node &node, int32_t parent, const toml::key *key) {
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
    return out;
}

// toml++ builds dotted keys and table headers (`a.b.c...`) by recursion, and so does its
// destructor: ~30,000 parts overflow the stack. Inline nesting it bounds itself (256), so
// only the number of dotted parts of one key needs a check, made here before toml++ runs.
// The scan knows just enough TOML to skip strings and comments.
bool dotted_keys_within_limit(std::string_view text, int32_t &line, int32_t &column) {
    static const std::string_view basic3 = "\"\"\"", literal3 = "'''";
    int32_t dots = 0;
    bool after_part = false, after_dot = false;
    int32_t l = 1;
    size_t line_start = 0;
    size_t i = 0;
    auto is_bare = [](unsigned char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
    };
    auto part = [&]() {
        if (!after_dot) dots = 0;
        after_part = true;
        after_dot = false;
    };
    while (i < text.size()) {
        unsigned char c = static_cast<unsigned char>(text[i]);
        if (c == '\n') {
            l++;
            line_start = i + 1;
            dots = 0;
            after_part = after_dot = false;
            i++;
        } else if (c == ' ' || c == '\t' || c == '\r') {
            i++;
        } else if (c == '#') {
            while (i < text.size() && text[i] != '\n') i++;
        } else if (c == '"' || c == '\'') {
            std::string_view close = c == '"' ? basic3 : literal3;
            bool multi = text.substr(i, 3) == close;
            size_t j = i + (multi ? 3 : 1);
            while (j < text.size()) {
                if (c == '"' && text[j] == '\\') { j += 2; continue; }
                if (text[j] == '\n') {
                    if (!multi) break;
                    l++;
                    line_start = j + 1;
                }
                if (multi ? text.substr(j, 3) == close : text[j] == static_cast<char>(c)) {
                    j += multi ? 3 : 1;
                    break;
                }
                j++;
            }
            i = j;
            part();
        } else if (is_bare(c)) {
            while (i < text.size() && is_bare(static_cast<unsigned char>(text[i]))) i++;
            part();
        } else if (c == '.') {
            if (after_part && ++dots >= ctoml_max_key_parts) {
                line = l;
                column = static_cast<int32_t>(i - line_start + 1);
                return false;
            }
            after_part = false;
            after_dot = true;
            i++;
        } else {
            dots = 0;
            after_part = after_dot = false;
            i++;
        }
    }
    return true;
}

// TOML allows "\u0000" in strings; a NUL would cut every C string the config reaches
// (argv, D-Bus messages, notifications), so it is refused with its position.
void find_nul(ctoml_document &doc) {
    for (const auto &node : doc.nodes) {
        bool in_key = node.key && std::string_view(node.key, node.key_length).find('\0') != std::string_view::npos;
        bool in_text = node.text && std::string_view(node.text, node.text_length).find('\0') != std::string_view::npos;
        if (in_key || in_text) {
            doc.error = in_key ? "a key contains a NUL character (\\u0000), which no key can hold"
                               : "a string contains a NUL character (\\u0000), which no setting can hold";
            doc.error_line = in_key ? node.key_line : node.line;
            doc.error_column = in_key ? node.key_column : node.column;
            doc.ok = false;
            return;
        }
    }
}

}  // namespace

extern "C" {

ctoml_document *ctoml_parse(const char *text, size_t length) {
    static const char empty[1] = {0};
    if (text == nullptr) text = empty;  // an empty Swift string may have no buffer
    auto *doc = new ctoml_document();
    int32_t line = 0, column = 0;
    if (!dotted_keys_within_limit(std::string_view(text, length), line, column)) {
        doc->error = "a key or table name has more than " + std::to_string(ctoml_max_key_parts) + " dotted parts";
        doc->error_line = line;
        doc->error_column = column;
        return doc;
    }
    try {
        toml::table root = toml::parse(std::string_view(text, length));
        ctoml_node top{};
        top.kind = CTOML_TABLE;
        top.parent = -1;
        top.line = 1;
        top.column = 1;
        doc->nodes.push_back(top);
        add_tree(*doc, root);
        doc->ok = true;
        find_nul(*doc);
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
