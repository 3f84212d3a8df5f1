"""generate.py — renders the stand-in SDK declarations of tests/runtime/metal/sdk from Apple's
declarations (sdk.py's database), so that the Linux syntax check of the Mac sources compiles
against Apple's own selectors, types, enum values and availability.

What is rendered: every class and protocol the Mac sources name (and their superclasses and
adopted protocols), with every method and property whose types can be written down here; every
enum of Metal and MetalPerformanceShaders with its values; the typedefs, structs and functions
they need. Types outside these frameworks (dispatch queues, IOSurface, simd vectors) are not
rendered, nor the members that need them (each class says how many). What PyObjC's scan cannot
give is kept by hand in sdk/Foundation/Foundation.h (the Objective-C basics and the NSObject root
class) and sdk/mach/mach_time.h, marked as such.

  generate.py --write     rewrites the *.generated.h files
  generate.py --check     exit 1 (with a diff) when they differ from what Apple's declarations give
  generate.py --out DIR   writes them under DIR instead
"""

import argparse
import difflib
import glob
import os
import re
import sys

import sdk

SDK_DIR = os.path.join(sdk.SOURCE_DIR, "tests", "runtime", "metal", "sdk")
# The Mac sources (Objective-C and their private headers) whose Apple names are rendered.
MAC_SOURCES = ["src/runtime/metal/*.m", "src/runtime/metal/*.h", "src/bench/*.m", "src/doctor/*.m"]
FRAMEWORK_FILE = {
    "Foundation": "Foundation/Foundation.generated.h",
    "CoreFoundation": "Foundation/Foundation.generated.h",
    "Metal": "Metal/Metal.generated.h",
    "MetalPerformanceShaders": "MetalPerformanceShaders/MetalPerformanceShaders.generated.h",
}
WHOLE_ENUMS = ("Metal", "MetalPerformanceShaders")  # every enum of these is rendered

# Names the hand-kept Foundation.h defines (the Objective-C language and runtime basics, which
# PyObjC's Foundation scan does not cover) and C's own.
HAND_KEPT = {"NSObject", "NSInteger", "NSUInteger", "BOOL", "id", "SEL", "Class", "IMP",
             "instancetype", "NSZone", "Protocol"}
C_WORDS = {"void", "char", "short", "int", "long", "unsigned", "signed", "float", "double",
           "const", "volatile", "restrict", "__restrict", "struct", "enum", "union", "_Bool",
           "bool", "_Nullable", "_Nonnull", "_Null_unspecified", "__kindof",
           "__unsafe_unretained", "__strong", "__weak", "__autoreleasing", "nullable", "nonnull",
           "size_t", "ptrdiff_t", "intptr_t", "uintptr_t", "int8_t", "int16_t", "int32_t",
           "int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t", "__int128", "_Complex",
           "oneway", "in", "out", "inout", "bycopy", "byref", "_Nullable_result", "va_list"}
INT_TYPES = {"Q": "NSUInteger", "q": "NSInteger", "I": "uint32_t", "i": "int32_t",
             "S": "uint16_t", "s": "int16_t", "C": "uint8_t", "c": "int8_t", "L": "uint32_t",
             "l": "int32_t"}
PROPERTY_ATTRS = {"readonly", "readwrite", "copy", "retain", "strong", "assign", "weak",
                  "nonatomic", "atomic", "class", "unsafe_unretained", "null_resettable"}


def source_names(root=sdk.SOURCE_DIR):
    names = set()
    for pattern in MAC_SOURCES:
        for path in sorted(glob.glob(os.path.join(root, pattern))):
            with open(path, encoding="utf-8") as f:
                names.update(re.findall(r"\b[A-Za-z_]\w*\b", f.read()))
    return names


def version(v):
    return tuple(int(x) for x in v.split("."))


def real_version(v):
    """A macOS version, or None for none and for API_TO_BE_DEPRECATED's 100000 ("some day")."""
    if not v or not re.fullmatch(r"\d+(\.\d+)*", v) or version(v)[0] >= 100000:
        return None
    return v


class Renderer:
    def __init__(self, db):
        self.db = db
        self.struct_by_tag = {}
        for name, s in db["structs"].items():
            m = re.match(r"\{([^=]*)=", s["typestr"])
            if m:
                self.struct_by_tag.setdefault(m.group(1), dict(s, name=name))
        self.typedef_names_of_tag = {}
        for name, t in db["typedefs"].items():
            m = re.fullmatch(r"struct (\w+)", t["type"])
            if m:
                self.typedef_names_of_tag.setdefault(m.group(1), []).append(name)
        self.need_types = set()  # typedef / enum-type / struct-tag names to render
        self.forward = {"class": set(), "protocol": set()}
        self.unresolved = {}

    # ---- type names --------------------------------------------------------------------------
    def resolve(self, type_name, generic=(), seen=None):
        """The names a type spelling needs, or None when one cannot be rendered here."""
        if type_name is None:
            return None
        seen = seen or set()
        out = set()
        words = re.findall(r"\b[A-Za-z_]\w*\b", type_name)
        tag_kw = None
        for w in words:
            if w in ("struct", "enum", "union"):
                tag_kw = w
                continue
            if tag_kw:
                kw, tag_kw = tag_kw, None
                if kw == "struct" and w in self.struct_by_tag:
                    out.add(("struct", w))
                    continue
                if kw == "enum" and w in self.db["enum_types"]:
                    out.add(("enum", w))
                    continue
                return None
            if w in C_WORDS or w in HAND_KEPT or w in generic:
                continue
            if w in self.db["classes"]:
                out.add(("class", w))
            elif w in self.db["protocols"]:
                out.add(("protocol", w))
            elif w in self.db["enum_types"]:
                out.add(("enum", w))
            elif w in self.db["typedefs"]:
                if w in seen:
                    continue
                sub = self.resolve_typedef(w, seen | {w})
                if sub is None:
                    return None
                out |= sub
                out.add(("typedef", w))
            else:
                self.unresolved[w] = self.unresolved.get(w, 0) + 1
                return None
        return out

    def resolve_typedef(self, name, seen):
        target = self.db["typedefs"][name]["type"]
        m = re.fullmatch(r"struct (\w+)", target)
        if m:
            return self.resolve_struct(m.group(1), seen)
        m = re.fullmatch(r"enum (\w+)", target)
        if m:
            return set() if m.group(1) in self.db["enum_types"] else None
        return self.resolve(target, seen=seen)

    def resolve_struct(self, tag, seen):
        s = self.struct_by_tag.get(tag)
        if s is None:
            return None
        fields = self.struct_fields(s)
        if fields is None:
            return None
        out = {("struct", tag)}
        for ftype, _ in fields:
            for kind, ref in re.findall(r"\b(struct) (\w+)", ftype):
                if ref != tag and ("struct", ref) not in seen:
                    sub = self.resolve_struct(ref, seen | {("struct", ref)})
                    if sub is None:
                        return None
                    out |= sub
        return out

    def need(self, names):
        for kind, name in names:
            if kind in ("class", "protocol"):
                self.forward[kind].add(name)
            else:
                self.need_types.add((kind, name))

    # ---- structs from their encodings --------------------------------------------------------
    def struct_fields(self, s):
        m = re.fullmatch(r"\{([^=]*)=(.*)\}", s["typestr"])
        if not m:
            return None
        encs, rest = [], m.group(2)
        while rest:
            one, rest = self.split_encoding(rest)
            if one is None:
                return None
            encs.append(one)
        if len(encs) != len(s["fields"]):
            return None
        fields = []
        for enc, fname in zip(encs, s["fields"]):
            c = self.encoding_type(enc)
            if c is None:
                return None
            fields.append((c, fname))
        return fields

    def split_encoding(self, s):
        if not s:
            return None, s
        c = s[0]
        if c in "rnNoORV":
            one, rest = self.split_encoding(s[1:])
            return (c + one if one else None), rest
        if c == "^":
            one, rest = self.split_encoding(s[1:])
            return (c + one if one else None), rest
        if c in "{([":
            close = {"{": "}", "(": ")", "[": "]"}[c]
            depth = 0
            for i, ch in enumerate(s):
                if ch in "{([":
                    depth += 1
                elif ch in "})]":
                    depth -= 1
                    if depth == 0:
                        return s[:i + 1], s[i + 1:]
            return None, ""
        if c == "b":
            m = re.match(r"b\d+", s)
            return None, s[m.end():] if m else ""
        if c == "<":
            return None, ""
        return c, s[1:]

    def encoding_type(self, enc):
        base = {"c": "char", "C": "unsigned char", "s": "short", "S": "unsigned short",
                "i": "int", "I": "unsigned int", "q": "NSInteger", "Q": "NSUInteger",
                "f": "float", "d": "double", "B": "bool", "Z": "BOOL", "@": "id", "#": "Class",
                ":": "SEL", "*": "char *", "v": "void"}
        if enc in base:
            return base[enc]
        if enc.startswith("r"):
            inner = self.encoding_type(enc[1:])
            return None if inner is None else "const " + inner
        if enc.startswith("^"):
            inner = self.encoding_type(enc[1:])
            return None if inner is None else inner + " *"
        m = re.fullmatch(r"\[(\d+)(.*)\]", enc)
        if m:
            inner = self.encoding_type(m.group(2))
            return None if inner is None else f"{inner}[{m.group(1)}]"
        m = re.fullmatch(r"\{([^=}]*)(=.*)?\}", enc)
        if m and m.group(1) in self.struct_by_tag:
            return f"struct {m.group(1)}"
        return None

    # ---- members -----------------------------------------------------------------------------
    def slot_type(self, slot):
        if slot.get("type_name"):
            return slot["type_name"]
        return self.typestr_type(slot.get("typestr"))

    def typestr_type(self, t):
        if t is None:
            return None
        simple = {"v": "void", "Z": "BOOL", "B": "bool", "f": "float", "d": "double",
                  "@": "id", "*": "char *", "r*": "const char *", "^v": "void *",
                  "r^v": "const void *", ":": "SEL", "#": "Class"}
        if t in simple:
            return simple[t]
        if t in INT_TYPES:
            return INT_TYPES[t]
        m = re.fullmatch(r"\{([^=}]*)(=.*)?\}", t)
        if m:
            names = self.typedef_names_of_tag.get(m.group(1))
            return names[0] if names else f"struct {m.group(1)}"
        return None

    def function_type(self, name, fn):
        """The return type of a C function: PyObjC's scan records objects only as "@"; metal-cpp
        names the class (MTL::Device* is id<MTLDevice>, NS::Array* is NSArray *)."""
        ret = self.slot_type(fn["retval"])
        if ret == "id":
            cpp = self.db["metal_cpp"]["functions"].get(name)
            if cpp:
                ret = self.cpp_to_objc(cpp["ret"]) or ret
        return ret

    def cpp_to_objc(self, cpp):
        m = re.fullmatch(r"(MTL4|MTL|NS|CA)::(\w+)\s*\*", cpp.strip())
        if not m:
            return None
        name = m.group(1) + m.group(2)
        if name in self.db["protocols"]:
            return f"id<{name}>"
        if name in self.db["classes"]:
            return f"{name} *"
        return None

    def availability(self, intro, dep):
        intro, dep = real_version(intro), real_version(dep)
        if intro and dep:
            return f" GP_MACOS_DEPRECATED({intro}, {dep})"
        if intro:
            return f" GP_MACOS({intro})"
        if dep:
            return f" GP_MACOS_DEPRECATED(10.0, {dep})"
        return ""

    def method_decl(self, key, m, generic):
        sel = key[1:]
        types = [self.slot_type(a) for a in m["args"]]
        ret = self.slot_type(m["retval"])
        needs = set()
        for t in types + [ret]:
            r = self.resolve(t, generic)
            if r is None:
                return None, None
            needs |= r
        parts = sel.split(":")
        if len(m["args"]) == 0:
            text = f"{key[0]} ({ret}){sel}"
        else:
            pieces = []
            for i, (kw, t) in enumerate(zip(parts, types)):
                pname = m["args"][i].get("name") or f"arg{i}"
                pieces.append(f"{kw}:({t}){pname}")
            text = f"{key[0]} ({ret})" + " ".join(pieces)
        if m.get("variadic"):
            text += ", ..."
            if types and types[-1].replace(" ", "").startswith("NSString*") and \
                    m["args"][-1].get("name") == "format":
                # NS_FORMAT_FUNCTION: not in the scan, but every variadic NSString *format is one
                text += f" __attribute__((format(__NSString__, {len(types)}, {len(types) + 1})))"
        text += self.availability(m.get("introduced"), m.get("deprecated")) + ";"
        return text, needs

    def property_decl(self, name, p, getter, generic):
        needs = self.resolve(p["type_name"], generic)
        if needs is None:
            return None, None
        attrs = [a for a in p["attributes"] if a in PROPERTY_ATTRS]
        if p["getter"] != name:
            attrs.append(f"getter={p['getter']}")
        attr = f"({', '.join(attrs)}) " if attrs else ""
        t = p["type_name"]
        sep = "" if t.endswith("*") else " "
        avail = self.availability(getter.get("introduced"), getter.get("deprecated")) \
            if getter else ""
        return f"@property {attr}{t}{sep}{name}{avail};", needs

    def members(self, entry, generic=()):
        """(lines, skipped): the declarations of a class or protocol's members."""
        methods = dict(entry["methods"])
        lines, optional, skipped = [], [], 0
        for name in sorted(entry["properties"]):
            p = entry["properties"][name]
            cls = "+" if "class" in p["attributes"] else "-"
            getter = methods.pop(cls + p["getter"], None)
            setter = methods.pop(cls + p["setter"], None) if p["setter"] else None
            if getter is None and setter is None:
                continue
            text, needs = self.property_decl(name, p, getter, generic)
            if text is None:
                skipped += 1
                continue
            self.need(needs)
            (optional if getter and getter.get("optional") else lines).append(text)
        for key in sorted(methods):
            text, needs = self.method_decl(key, methods[key], generic)
            if text is None:
                skipped += 1
                continue
            self.need(needs)
            (optional if methods[key].get("optional") else lines).append(text)
        if optional:
            lines += ["@optional"] + optional
        return lines, skipped

    # ---- the whole rendering -----------------------------------------------------------------
    def closure(self, roots):
        classes, protocols = set(), set()
        todo = [("class", n) for n in roots if n in self.db["classes"]]
        todo += [("protocol", n) for n in roots if n in self.db["protocols"]]
        while todo:
            kind, name = todo.pop()
            if name == "NSObject":
                continue
            if kind == "class":
                if name in classes:
                    continue
                classes.add(name)
                c = self.db["classes"][name]
                if c["super"]:
                    todo.append(("class", c["super"]))
                todo += [("protocol", p) for p in c["protocols"] if p in self.db["protocols"]]
            else:
                if name in protocols:
                    continue
                protocols.add(name)
                todo += [("protocol", p) for p in self.db["protocols"][name]["implements"]
                         if p in self.db["protocols"]]
        return classes, protocols

    def render(self, roots):
        db = self.db
        classes, protocols = self.closure(roots)
        out = {f: {"forward": set(), "types": [], "protocols": [], "classes": [],
                   "functions": [], "loose": []} for f in set(FRAMEWORK_FILE.values())}

        def file_of(fw):
            return FRAMEWORK_FILE.get(fw, FRAMEWORK_FILE["Foundation"])

        for name in sorted(protocols, key=lambda n: self.protocol_depth(n, protocols)):
            p = db["protocols"][name]
            lines, skipped = self.members(p)
            base = [x for x in p["implements"] if x in protocols or x == "NSObject"]
            head = f"@protocol {name}" + (f" <{', '.join(base)}>" if base else "")
            out[file_of(p["framework"])]["protocols"].append(
                self.block(head, lines, skipped))
        for name in sorted(classes, key=lambda n: self.class_depth(n)):
            c = db["classes"][name]
            generic = tuple(c["generic"])
            lines, skipped = self.members(c, generic)
            head = f"@interface {name}" + (f"<{', '.join(generic)}>" if generic else "")
            if c["super"]:
                sup_generic = db["classes"].get(c["super"], {}).get("generic", [])
                head += f" : {c['super']}"
                if sup_generic and len(sup_generic) == len(generic):
                    head += f"<{', '.join(generic)}>"
            adopted = [p for p in c["protocols"] if p in protocols or p == "NSObject"]
            if adopted:
                head += f" <{', '.join(adopted)}>"
            out[file_of(c["framework"])]["classes"].append(self.block(head, lines, skipped))
        for name in sorted(roots):
            fn = db["functions"].get(name)
            if not fn:
                continue
            ret = self.function_type(name, fn)
            args = [self.slot_type(a) for a in fn["args"] if a.get("typestr") != "v" or
                    a.get("type_name")]
            needs = set()
            ok = True
            for t in args + [ret]:
                r = self.resolve(t)
                if r is None:
                    ok = False
                    break
                needs |= r
            if not ok:
                continue
            self.need(needs)
            params = ", ".join(args) if args else "void"
            if fn["variadic"]:
                params += ", ..."
            avail = self.availability(fn.get("introduced"), fn.get("deprecated"))
            out[file_of(fn["framework"])]["functions"].append(f"{ret} {name}({params}){avail};")
        for name in sorted(roots):
            x = db["externs"].get(name)
            if not x or not x.get("type_name"):
                continue
            needs = self.resolve(x["type_name"])
            if needs is None:
                continue
            self.need(needs)
            avail = self.availability(x.get("introduced"), None)
            out[file_of(x["framework"])]["functions"].append(
                f"extern {x['type_name']} {name}{avail};")
        for name in sorted(roots):
            if name in db["typedefs"] and name not in HAND_KEPT:
                r = self.resolve(name)
                if r is not None:
                    self.need(r)
            if name in db["enums"] and db["enums"][name]["type"] in db["enum_types"]:
                self.need_types.add(("enum", db["enums"][name]["type"]))
        for name, t in db["enum_types"].items():
            if t["framework"] in WHOLE_ENUMS:
                self.need_types.add(("enum", name))
        # enumerators of anonymous enums (NS_ENUM(NSStringEncoding) {...}): the scan records no type
        for name, e in sorted(db["enums"].items()):
            if e["type"] not in db["enum_types"] and isinstance(e["value"], int) and \
                    (e["framework"] in WHOLE_ENUMS or name in roots):
                out[file_of(e["framework"])]["loose"].append((name, e["value"]))
        for kind, name in self.need_types:
            fw = self.type_framework(kind, name)
            out[file_of(fw)]["types"].append((kind, name))
        for kind in ("class", "protocol"):
            for name in self.forward[kind]:
                entry = db["classes" if kind == "class" else "protocols"][name]
                out[file_of(entry["framework"])]["forward"].add((kind, name))
        return {f: self.file_text(f, parts) for f, parts in out.items()}

    def type_framework(self, kind, name):
        db = self.db
        if kind == "enum":
            return db["enum_types"][name]["framework"]
        if kind == "struct":
            return self.struct_by_tag[name]["framework"]
        return db["typedefs"][name]["framework"]

    def protocol_depth(self, name, protocols, seen=()):
        imp = [p for p in self.db["protocols"][name]["implements"] if p in protocols and
               p not in seen]
        return (1 + max((self.protocol_depth(p, protocols, seen + (name,))[0] for p in imp),
                        default=0), name)

    def class_depth(self, name):
        depth, c = 0, name
        while c in self.db["classes"] and self.db["classes"][c]["super"]:
            depth += 1
            c = self.db["classes"][c]["super"]
        return (depth, name)

    def block(self, head, lines, skipped):
        text = head + "\n"
        if skipped:
            text += (f"/* {skipped} member(s) not rendered: their types are outside these "
                     "declarations */\n")
        text += "".join(f"{line}\n" for line in lines) + "@end\n"
        return text

    # ---- types -------------------------------------------------------------------------------
    def enum_text(self, name):
        db = self.db
        base = INT_TYPES.get(db["enum_types"][name]["typestr"], "NSInteger")
        values = sorted(((v["value"], k) for k, v in db["enums"].items() if v["type"] == name),
                        key=lambda x: (x[0] if isinstance(x[0], int) else 0, x[1]))
        unsigned = base.startswith("NSU") or base.startswith("uint")
        lines = [f"typedef enum {name} : {base} {name};", f"enum {name} : {base} {{"]
        for value, k in values:
            if not isinstance(value, int):
                continue
            lit = str(value)
            if unsigned and value > 0x7FFFFFFF:
                lit += "UL"
            lines.append(f"    {k} = {lit},")
        lines.append("};")
        return "\n".join(lines) + "\n"

    def struct_text(self, tag):
        s = self.struct_by_tag[tag]
        fields = self.struct_fields(s)
        body = "".join(f"    {self.field(t, n)};\n" for t, n in fields)
        names = sorted(self.typedef_names_of_tag.get(tag, []))
        text = f"struct {tag} {{\n{body}}};\n"
        for n in names:
            text += f"typedef struct {tag} {n};\n"
        return text

    def field(self, t, n):
        m = re.fullmatch(r"(.*)\[(\d+)\]", t)
        if m:
            return f"{m.group(1)} {n}[{m.group(2)}]"
        return f"{t}{'' if t.endswith('*') else ' '}{n}"

    def typedef_text(self, name):
        target = self.db["typedefs"][name]["type"]
        if re.fullmatch(r"struct \w+", target):
            return None  # rendered with the struct
        m = re.search(r"\((\^|\*)\)", target)
        if m:
            return f"typedef {target[:m.start()]}({m.group(1)}{name}){target[m.end():]};\n"
        sep = "" if target.endswith("*") else " "
        return f"typedef {target}{sep}{name};\n"

    def ordered_types(self, items):
        """Typedefs, enums and structs in an order where each comes after what it uses."""
        done, order = set(), []

        def deps(kind, name):
            if kind == "enum":
                return set()
            if kind == "struct":
                fields = self.struct_fields(self.struct_by_tag[name]) or []
                return {("struct", t) for f, _ in fields for t in re.findall(r"struct (\w+)", f)
                        if t != name}
            return {x for x in (self.resolve(self.db["typedefs"][name]["type"]) or set())
                    if x[0] not in ("class", "protocol")}

        def visit(item, stack=()):
            if item in done or item in stack:
                return
            for d in sorted(deps(*item)):
                if d in items:
                    visit(d, stack + (item,))
            done.add(item)
            order.append(item)

        for item in sorted(items):
            visit(item)
        return order

    def file_text(self, path, parts):
        fw = os.path.dirname(path)
        lines = [f"/* {os.path.basename(path)} — GENERATED by tests/runtime/metal/apple/"
                 "generate.py from PyObjC's scan",
                 f" * of the macOS {self.scan_sdk(fw)} SDK headers (and metal-cpp for the return "
                 "types of functions); do not edit.",
                 " * A stand-in for the syntax check only: declarations, no definitions. */",
                 "#pragma once",
                 "#pragma clang assume_nonnull begin /* NS_ASSUME_NONNULL_BEGIN */",
                 "#pragma clang diagnostic push",
                 "/* the scan keeps the nullability Apple wrote, not what NS_ASSUME_NONNULL implies for",
                 " * pointers to pointers: not what this stand-in is for */",
                 '#pragma clang diagnostic ignored "-Wnullability-completeness"', ""]
        if parts["forward"]:
            for kind, name in sorted(parts["forward"]):
                if kind == "class":
                    generic = self.db["classes"][name]["generic"]
                    lines.append(f"@class {name}" +
                                 (f"<{', '.join(generic)}>;" if generic else ";"))
                else:
                    lines.append(f"@protocol {name};")
            lines.append("")
        items = set(parts["types"])
        for kind, name in self.ordered_types(items):
            if kind == "enum":
                lines.append(self.enum_text(name))
            elif kind == "struct":
                lines.append(self.struct_text(name))
            else:
                if name in self.db["enum_types"]:
                    continue
                t = self.typedef_text(name)
                if t:
                    lines.append(t)
        if parts["loose"]:
            lines.append("enum {")
            lines += [f"    {n} = {v}," for n, v in parts["loose"]]
            lines.append("};\n")
        lines += parts["protocols"] + parts["classes"]
        lines += parts["functions"]
        lines += ["", "#pragma clang diagnostic pop", "#pragma clang assume_nonnull end"]
        return "\n".join(lines).rstrip("\n") + "\n"

    def scan_sdk(self, fw):
        return self.db["scan_sdk"].get(fw, self.db["scan_sdk"].get("Metal"))


def render_all(db, root=sdk.SOURCE_DIR):
    return Renderer(db).render(source_names(root))


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--write", action="store_true")
    g.add_argument("--check", action="store_true")
    g.add_argument("--out")
    args = ap.parse_args(argv[1:])
    db = sdk.load_or_skip()
    files = render_all(db)
    base = args.out or SDK_DIR
    if args.check:
        differ = 0
        for rel, text in sorted(files.items()):
            path = os.path.join(base, rel)
            old = open(path, encoding="utf-8").read() if os.path.exists(path) else ""
            if old != text:
                differ = 1
                sys.stdout.writelines(difflib.unified_diff(
                    old.splitlines(True), text.splitlines(True), f"a/{rel}", f"b/{rel}", n=1))
        if differ:
            print("FAIL: the stand-in declarations differ from Apple's; run "
                  "tests/runtime/metal/apple/generate.py --write and review the difference")
        return differ
    for rel, text in files.items():
        path = os.path.join(base, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        print(f"wrote {path} ({text.count(chr(10))} lines)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
