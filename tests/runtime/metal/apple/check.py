"""check.py — checks every Objective-C message, C function, enumerator and availability guard of
the Mac sources against Apple's declarations (sdk.py's database), not against the stand-in.

Each file is parsed by clang itself (-fsyntax-only -Xclang -ast-dump=json, macOS target, against
the stand-in SDK so that it parses); the checks walk clang's AST, where every message is an
ObjCMessageExpr with its selector, its receiver's static type and its arguments' types, dot
syntax and subscripts included (their getter and setter messages), so nothing is matched by
pattern. For each use the rules are:
  - the selector exists on the receiver's class (its superclasses, categories and protocols) or
    protocol (and the protocols it inherits), as an instance or class method as sent;
  - each argument's type is what Apple declares: an enum parameter gets that enum's values (or a
    cast to it), never a literal or another enum; integers are not narrowed or made unsigned
    from signed; objects conform; structs, blocks and pointers match;
  - the result is used as what Apple declares: not narrowed without a cast, not converted to an
    object type it does not conform to, a +1 object (new/alloc/copy) not discarded; and the
    stand-in's declaration returns the same type as Apple's;
  - every enumerator's value equals Apple's, and so does every enumerator of the sources named
    GP_<Apple's name> (the sources' own spelling of values that older SDKs lack); Apple's other
    constants (MTLLibraryErrorDomain, ...) exist;
  - each API's macOS availability is at most the oldest macOS supported (MIN_MACOS) or the
    @available guard around it, and each guard equals the newest API it guards;
  - metal-cpp, where it renders the class, agrees that the selector exists and on enum values.
Diagnostics read FILE:LINE:COL: error: ...; the exit status is 1 when there is any.

  check.py [FILE...]      (default: the Mac sources of generate.MAC_SOURCES)
"""

import argparse
import glob
import json
import os
import re
import subprocess
import sys

import generate
import sdk

MIN_MACOS = "11.0"  # the oldest macOS the Mac sources support: Metal 2.3, and Apple Silicon's first
STANDIN = os.path.join(sdk.SOURCE_DIR, "tests", "runtime", "metal", "sdk")
# Values of these enums are only ever asked about (supportsFamily:); an OS that does not know a
# family simply does not support it, so their availability needs no guard.
QUERY_ONLY_ENUMS = {"MTLGPUFamily"}
OWNING = re.compile(r"^(new|alloc|copy|mutableCopy)([A-Z:]|$)")

INT_WIDTH = {"char": (8, True), "signed char": (8, True), "unsigned char": (8, False),
             "short": (16, True), "unsigned short": (16, False), "int": (32, True),
             "unsigned int": (32, False), "long": (64, True), "unsigned long": (64, False),
             "long long": (64, True), "unsigned long long": (64, False)}
BASE_TYPEDEFS = {"NSUInteger": "unsigned long", "NSInteger": "long", "uint8_t": "unsigned char",
                 "int8_t": "signed char", "uint16_t": "unsigned short", "int16_t": "short",
                 "uint32_t": "unsigned int", "int32_t": "int", "uint64_t": "unsigned long long",
                 "int64_t": "long long", "size_t": "unsigned long", "uintptr_t": "unsigned long",
                 "intptr_t": "long", "ptrdiff_t": "long", "CGFloat": "double"}
QUALIFIERS = re.compile(r"\b(_Nullable_result|_Nullable|_Nonnull|_Null_unspecified|__kindof|"
                        r"__unsafe_unretained|__strong|__weak|__autoreleasing|nullable|nonnull|"
                        r"__restrict|restrict|volatile|oneway)\b")


def clang_flags(target="arm64-apple-macos" + MIN_MACOS.split(".")[0]):
    """The flags of the syntax check: a macOS target, no ARC, the stand-in SDK, the host's C
    library headers (Darwin's are in none of the packages), the project's warnings as errors."""
    if target.startswith("arm64"):
        libc = "/usr/aarch64-linux-gnu/include"
    else:
        arch = subprocess.run(["clang", "-print-multiarch"], capture_output=True,
                              text=True).stdout.strip()
        libc = f"/usr/include/{arch}"
    src = sdk.SOURCE_DIR
    return ["-target", target, "-x", "objective-c", "-fsyntax-only", "-fblocks",
            "-isystem", libc, "-D__nonnull(p)=", "-Wno-macro-redefined",
            "-I", STANDIN, "-I", os.path.join(src, "include"), "-I", os.path.join(src, "src"),
            "-D_POSIX_C_SOURCE=200809L", "-D_DEFAULT_SOURCE", "-D_DARWIN_C_SOURCE",
            "-D__MAC_15_0=150000", "-Wall", "-Wextra", "-Wshadow", "-Wstrict-prototypes",
            "-Wmissing-prototypes", "-Wno-unused-parameter", "-Wunguarded-availability",
            "-Werror"]


def version(v):
    return tuple(int(x) for x in v.split(".")) if v else (0,)


# ---- the AST ---------------------------------------------------------------------------------
def annotate(node, state, parent=None):
    """Resolves clang's de-duplicated locations (a location omits the file and line it shares
    with the one written before it) and links each node to its parent."""
    if isinstance(node, dict):
        if parent is not None and "kind" in node:
            node["_parent"] = parent
        for key in list(node.keys()):
            val = node[key]
            if key in ("loc", "begin", "end", "spellingLoc", "expansionLoc") and \
                    isinstance(val, dict):
                fix_loc(val, state)
            elif key == "range" and isinstance(val, dict):
                for k in ("begin", "end"):
                    if k in val:
                        fix_loc(val[k], state)
            elif key == "inner":
                for child in val:
                    annotate(child, state, node if "kind" in node else parent)
            elif key != "_parent" and isinstance(val, (dict, list)) and key != "includedFrom":
                annotate(val, state, parent)
    elif isinstance(node, list):
        for child in node:
            annotate(child, state, parent)


def fix_loc(loc, state):
    if "spellingLoc" in loc or "expansionLoc" in loc:
        for k in ("spellingLoc", "expansionLoc"):
            if k in loc:
                fix_loc(loc[k], state)
        return
    if "file" in loc:
        state["file"] = loc["file"]
    if "line" in loc:
        state["line"] = loc["line"]
    loc["_file"], loc["_line"] = state.get("file"), state.get("line")


def where(node):
    """(file, line, col, offset) of a node: the place in the source it was written, or for code
    from a macro, where the macro was used."""
    rng = node.get("range", {}).get("begin") or node.get("loc") or {}
    if "expansionLoc" in rng:
        rng = rng["expansionLoc"]
    return rng.get("_file"), rng.get("_line"), rng.get("col"), rng.get("offset")


def walk(node):
    """Every node once, in source order (clang writes an expression that an OpaqueValueExpr
    stands for under each use of it: the copies share the id)."""
    stack, seen = [node], set()
    while stack:
        n = stack.pop()
        if isinstance(n, dict):
            if "kind" in n:
                if n.get("id") in seen:
                    continue
                seen.add(n.get("id"))
                yield n
            stack.extend(reversed(n.get("inner", [])))


def written(expr):
    """The expression as written: implicit conversions, parentheses and opaque wrappers removed."""
    while expr and expr.get("kind") in ("ImplicitCastExpr", "ParenExpr", "OpaqueValueExpr",
                                        "ConstantExpr", "FullExpr", "ExprWithCleanups"):
        if expr.get("castKind") in ("ArrayToPointerDecay", "FunctionToPointerDecay"):
            break
        inner = expr.get("inner") or []
        if not inner:
            break
        expr = inner[0]
    return expr


def qual(node):
    t = node.get("type", {})
    return t.get("qualType", ""), t.get("desugaredQualType", t.get("qualType", ""))


# ---- types -----------------------------------------------------------------------------------
class Types:
    """Classifies C and Objective-C type spellings, Apple's and clang's alike."""

    def __init__(self, db, own_classes):
        self.db = db
        self.own = own_classes  # the sources' own classes: name -> superclass
        self.tag_name = {}
        for name, td in sorted(db["typedefs"].items()):
            m = re.fullmatch(r"struct (\w+)", td["type"])
            if m:
                self.tag_name.setdefault(m.group(1), name)

    def superclasses(self, cls):
        seen = []
        while cls and cls not in seen:
            seen.append(cls)
            if cls in self.own:
                cls = self.own[cls]
            elif cls in self.db["classes"]:
                cls = self.db["classes"][cls]["super"]
            else:
                cls = None
        return seen

    def protocol_closure(self, protos):
        out, todo = set(), list(protos)
        while todo:
            p = todo.pop()
            if p in out:
                continue
            out.add(p)
            if p in self.db["protocols"]:
                todo += self.db["protocols"][p]["implements"]
        if out:
            out.add("NSObject")
        return out

    def class_protocols(self, cls):
        protos = set()
        for c in self.superclasses(cls):
            if c in self.db["classes"]:
                protos |= set(self.db["classes"][c]["protocols"])
        return self.protocol_closure(protos) | {"NSObject"}

    def resolve_typedef(self, name, depth=0):
        if depth > 20:
            return name
        if name in BASE_TYPEDEFS:
            return BASE_TYPEDEFS[name]
        td = self.db["typedefs"].get(name)
        if td and not re.fullmatch(r"(enum|struct) \w+", td["type"]):
            return self.resolve_typedef_text(td["type"], depth + 1)
        return name

    def resolve_typedef_text(self, text, depth):
        t = re.sub(r"\s+", " ", QUALIFIERS.sub("", text)).strip()
        m = re.fullmatch(r"(?:const )?(\w+)(?: const)?", t)
        if m and (m.group(1) in self.db["typedefs"] or m.group(1) in BASE_TYPEDEFS):
            return self.resolve_typedef(m.group(1), depth)
        return t

    def classify(self, spelling, generic_as_id=True):
        """A tuple describing a type: ('int', bits, signed, enum) ('bool',) ('float', bits)
        ('object', class, protocols) ('class',) ('block', text) ('pointer', pointee, const)
        ('struct', tag) ('void',) ('unknown', text)."""
        t = QUALIFIERS.sub("", spelling or "").strip()
        t = re.sub(r"\s+", " ", t).replace(" *", "*").replace("* ", "*")
        t = re.sub(r"\*\s*const$", "*", t)  # a const pointer is still that pointer
        t = re.sub(r"^const ", "", t) if not t.endswith("*") or t.count("*") == 0 else t
        if "(^" in t:
            return ("block", t)
        if "(*" in t:
            return ("pointer", "function", False)
        if t in ("void",):
            return ("void",)
        if t in ("BOOL", "bool", "_Bool"):
            return ("bool",)
        if t in ("float", "double", "CFTimeInterval", "NSTimeInterval"):
            return ("float", 32 if t == "float" else 64)
        if t in ("id", "instancetype", "ObjectType", "KeyType") or re.fullmatch(r"__kindof \w+\*", t):
            return ("object", None, frozenset())
        if t == "Class":
            return ("class",)
        m = re.fullmatch(r"id<([\w, ]+)>", t)
        if m:
            return ("object", None, frozenset(p.strip() for p in m.group(1).split(",")))
        m = re.fullmatch(r"(?:const )?(\w+)(?:<.*>)?\*", t)
        if m and (m.group(1) in self.db["classes"] or m.group(1) in self.own or
                  m.group(1) == "NSObject"):
            return ("object", m.group(1), frozenset())
        m = re.fullmatch(r"(?:const )?(\w+)(?:<.*>)?<([\w, ]+)>\*", t)
        if m:
            return ("object", m.group(1), frozenset(p.strip() for p in m.group(2).split(",")))
        if t.endswith("*"):
            pointee = t[:-1].strip()
            const = pointee.startswith("const ") or pointee.endswith(" const")
            pointee = re.sub(r"^const |const$", "", pointee).strip()
            return ("pointer", self.pointee(pointee), const)
        m = re.fullmatch(r"enum (\w+)", t)
        if m:
            t = m.group(1)
        if t in self.db["enum_types"]:
            bits, signed = self.enum_base(t)
            return ("int", bits, signed, t)
        m = re.fullmatch(r"struct (\w+)", t)
        if m:
            return ("struct", self.struct_name(m.group(1)))
        if t in self.db["structs"] or self.struct_tag(t):
            return ("struct", self.struct_name(self.struct_tag(t) or t))
        base = self.resolve_typedef(t)
        if base != t:
            return self.classify(base)
        if t in INT_WIDTH:
            return ("int", *INT_WIDTH[t], None)
        return ("unknown", t)

    def pointee(self, text):
        c = self.classify(text)
        if c[0] == "object":
            return ("object", c[1], c[2])
        if c[0] == "pointer":
            return ("pointer", c[1])
        return c

    def enum_base(self, name):
        ts = self.db["enum_types"][name]["typestr"]
        return {"Q": (64, False), "q": (64, True), "I": (32, False), "i": (32, True),
                "S": (16, False), "s": (16, True), "C": (8, False), "c": (8, True),
                "L": (32, False), "l": (32, True)}.get(ts, (64, True))

    def struct_tag(self, name):
        td = self.db["typedefs"].get(name)
        if td:
            m = re.fullmatch(r"struct (\w+)", td["type"])
            if m:
                return m.group(1)
        return None

    def struct_name(self, tag):
        """One name for a struct, whether spelled by tag or by typedef."""
        return self.tag_name.get(tag, tag)

    # ---- compatibility ----------------------------------------------------------------------
    def conforms(self, have, want):
        """Does an object of type `have` (('object', class, protocols)) fit `want`?"""
        _, hc, hp = have
        _, wc, wp = want
        if wc is None and not wp:
            return True  # id
        if hc is None and not hp:
            return True  # id goes anywhere, as in clang
        have_protos = self.protocol_closure(hp)
        if hc:
            have_protos |= self.class_protocols(hc)
        if wc and not (hc and wc in self.superclasses(hc)):
            return False
        return all(p in have_protos for p in wp)


# ---- the checker -----------------------------------------------------------------------------
class Checker:
    def __init__(self, db, path, ast, source_text, report):
        self.db = db
        self.path = path
        self.ast = ast
        self.text = source_text
        self.report = report
        self._kinds = {}
        self.own_classes = {}
        self.hand = {"class": {}, "protocol": {}}  # hand-kept stand-in root, from the AST
        self.enum_decls = {}  # decl id -> (name, value) for every enumerator clang saw
        self.collect_decls()
        self.types = Types(db, self.own_classes)
        self.renderer = generate.Renderer(db)
        self.counts = {"messages": 0, "functions": 0, "enumerators": 0, "mirrors": 0,
                       "guards": 0, "casts": 0, "constants": 0}
        self.used = {"selectors": set(), "enumerators": set(), "functions": set(),
                     "constants": set()}

    def error(self, node, msg):
        f, line, col, _ = where(node)
        self.report(f"{self.path}:{line}:{col}: error: {msg}")

    def file_kind(self, f):
        """'main' (the file checked), 'project' (the project's other files) or 'other'."""
        if f not in self._kinds:
            r = os.path.realpath(f) if f else ""
            if r == os.path.realpath(self.path):
                self._kinds[f] = "main"
            elif r.startswith(os.path.realpath(sdk.SOURCE_DIR) + os.sep) and \
                    not r.startswith(os.path.realpath(STANDIN) + os.sep):
                self._kinds[f] = "project"
            else:
                self._kinds[f] = "other"
        return self._kinds[f]

    def in_project(self, node):
        return self.file_kind(where(node)[0]) in ("main", "project")

    def in_file(self, node):
        return self.file_kind(where(node)[0]) == "main"

    # ---- declarations -----------------------------------------------------------------------
    def collect_decls(self):
        for n in walk(self.ast):
            k = n.get("kind")
            if k == "EnumConstantDecl":
                val = None
                for c in walk(n):
                    if c.get("kind") == "ConstantExpr" and "value" in c:
                        val = int(c["value"])
                        break
                self.enum_decls[n["id"]] = (n["name"], val, n)
            elif k == "ObjCInterfaceDecl" and self.in_project(n):
                sup = n.get("super", {}).get("name")
                self.own_classes[n["name"]] = sup
            elif k in ("ObjCInterfaceDecl", "ObjCProtocolDecl") and n.get("name") == "NSObject":
                f = where(n)[0] or ""
                if f.endswith(os.path.join("Foundation", "Foundation.h")):
                    kind = "class" if k == "ObjCInterfaceDecl" else "protocol"
                    for m in n.get("inner", []):
                        if m.get("kind") == "ObjCMethodDecl":
                            key = ("-" if m.get("instance") else "+") + m["name"]
                            self.hand[kind][key] = self.method_from_decl(m)
        # the implicit values of enumerators without an initializer
        last = {}
        for did, (name, val, n) in list(self.enum_decls.items()):
            if val is None:
                parent = n.get("_parent", {}).get("id")
                val = last.get(parent, -1) + 1
                self.enum_decls[did] = (name, val, n)
            last[n.get("_parent", {}).get("id")] = val

    def method_from_decl(self, m):
        args = [{"type_name": p.get("type", {}).get("qualType")} for p in m.get("inner", [])
                if p.get("kind") == "ParmVarDecl"]
        return {"args": args, "retval": {"type_name": m.get("returnType", {}).get("qualType")},
                "introduced": None, "deprecated": None, "hand": True}

    # ---- method lookup ----------------------------------------------------------------------
    def lookup(self, key, cls=None, protocols=()):
        """(method, where it was found) in Apple's declarations, or (None, None)."""
        db = self.db
        places = []
        if cls:
            for c in self.types.superclasses(cls):
                if c in db["classes"]:
                    places.append(("class", c, db["classes"][c]))
                    for p in sorted(self.types.protocol_closure(db["classes"][c]["protocols"])):
                        if p in db["protocols"]:
                            places.append(("protocol", p, db["protocols"][p]))
                if c == "NSObject":
                    places.append(("hand", "NSObject", {"methods": self.hand["class"]}))
        for p in sorted(self.types.protocol_closure(protocols)):
            if p in db["protocols"]:
                places.append(("protocol", p, db["protocols"][p]))
        places.append(("hand", "<NSObject>", {"methods": self.hand["protocol"]}))
        for kind, name, entry in places:
            m = entry["methods"].get(key)
            if m is not None:
                return m, (kind, name)
        return None, None

    # ---- the walk ---------------------------------------------------------------------------
    def run(self):
        guards = []
        for n in walk(self.ast):
            if not self.in_file(n):
                continue
            k = n.get("kind")
            if k == "ObjCMessageExpr":
                self.message(n)
            elif k == "CallExpr":
                self.call(n)
            elif k == "DeclRefExpr":
                self.enum_ref(n)
            elif k == "EnumConstantDecl":
                self.mirror(n)
            elif k == "CStyleCastExpr":
                self.cast(n)
            elif k == "IfStmt":
                cond = written((n.get("inner") or [{}])[0])
                if cond and cond.get("kind") == "ObjCAvailabilityCheckExpr":
                    guards.append((n, cond))
            elif k == "ObjCForCollectionStmt":
                self.for_in(n)
            elif k == "ObjCImplementationDecl":
                self.implementation(n)
            elif k in ("ObjCBoxedExpr", "ObjCArrayLiteral", "ObjCDictionaryLiteral",
                       "ObjCSelectorExpr", "ObjCProtocolExpr", "ObjCEncodeExpr"):
                self.error(n, f"{k} sends messages this check does not verify; add it to "
                              "tests/runtime/metal/apple/check.py before using it")
        self.availability(guards)

    # ---- messages ---------------------------------------------------------------------------
    def message(self, n):
        self.counts["messages"] += 1
        sel = n["selector"]
        rk = n.get("receiverKind")
        inner = n.get("inner", [])
        if rk == "instance":
            recv, args = inner[0], inner[1:]
            rt = self.types.classify(qual(recv)[0])
            if rt[0] == "class":
                key, cls, protos = "+" + sel, None, ()
            elif rt[0] != "object":
                self.error(n, f"[{sel}] is sent to a {qual(recv)[0]}, not an object")
                return
            else:
                key, cls, protos = "-" + sel, rt[1], rt[2]
        elif rk == "class":
            key, cls, protos = "+" + sel, n.get("classType", {}).get("qualType"), ()
            args = inner
        else:  # super (instance) / super (class)
            impl = self.enclosing(n, "ObjCImplementationDecl")
            sup = self.own_classes.get(impl.get("name")) if impl else None
            key = ("+" if "class" in rk else "-") + sel
            cls, protos, args = sup, (), inner
        m, found = self.lookup(key, cls, protos)
        recv_name = cls or (f"id<{', '.join(sorted(protos))}>" if protos else "id")
        if m is None:
            if cls in self.own_classes and self.own_method(cls, key):
                return  # the sources' own method
            other = self.elsewhere(key)
            hint = f" (Apple declares it on {other})" if other else ""
            self.error(n, f"{recv_name} has no {'class' if key[0] == '+' else 'instance'} "
                          f"method {sel} in Apple's declarations{hint}")
            return
        self.used["selectors"].add((found[1], key))
        what = f"{'+' if key[0] == '+' else '-'}[{found[1]} {sel}]"
        fixed = m["args"]
        if len(args) < len(fixed) or (len(args) > len(fixed) and not m.get("variadic")):
            self.error(n, f"{what} takes {len(fixed)} argument(s), {len(args)} given")
            return
        for i, (a, slot) in enumerate(zip(args, fixed)):
            self.argument(n, what, i, a, slot)
        self.result(n, what, m, recv_type=(cls, protos))
        self.metal_cpp_selector(n, found, sel, m)
        self.note_api(n, what, m.get("introduced"), m.get("deprecated"))

    def own_method(self, cls, key):
        for n in walk(self.ast):
            if n.get("kind") in ("ObjCInterfaceDecl", "ObjCImplementationDecl") and \
                    n.get("name") == cls:
                for m in n.get("inner", []):
                    if m.get("kind") == "ObjCMethodDecl" and \
                            ("-" if m.get("instance") else "+") + m["name"] == key:
                        return True
        return False

    def elsewhere(self, key):
        found = []
        for group in ("classes", "protocols"):
            for name, entry in self.db[group].items():
                if key in entry["methods"]:
                    found.append(name)
        return ", ".join(sorted(found)[:3]) + (" ..." if len(found) > 3 else "") if found else ""

    def enclosing(self, n, kind):
        p = n.get("_parent")
        while p is not None:
            if p.get("kind") == kind:
                return p
            p = p.get("_parent")
        return None

    # ---- arguments --------------------------------------------------------------------------
    def apple_type(self, slot):
        return self.renderer.slot_type(slot)

    def argument(self, n, what, i, arg, slot):
        want_text = self.apple_type(slot)
        want = self.types.classify(want_text)
        w = written(arg)
        have_text = qual(w)[0]
        have = self.types.classify(have_text)
        problem = self.mismatch(have, want, w, arg)
        if problem:
            self.error(arg, f"argument {i + 1} of {what}: Apple declares {want_text}, "
                            f"the source passes {have_text or w.get('kind')} ({problem})")

    def null_constant(self, arg):
        for c in walk(arg):
            if c.get("kind") == "ImplicitCastExpr" and c.get("castKind") == "NullToPointer":
                return True
        w = written(arg)
        if w.get("kind") == "CStyleCastExpr":
            inner = written((w.get("inner") or [{}])[0])
            return inner.get("kind") == "IntegerLiteral" and inner.get("value") == "0"
        return w.get("kind") == "GNUNullExpr"

    def constant_value(self, w):
        """The value of an integer literal or enumerator, or None."""
        w = written(w)
        if w.get("kind") == "IntegerLiteral":
            return int(w["value"])
        if w.get("kind") == "DeclRefExpr":
            ref = w.get("referencedDecl", {})
            if ref.get("kind") == "EnumConstantDecl" and ref.get("id") in self.enum_decls:
                return self.enum_decls[ref["id"]][1]
        if w.get("kind") == "UnaryOperator" and w.get("opcode") == "-":
            v = self.constant_value((w.get("inner") or [{}])[0])
            return None if v is None else -v
        return None

    def enum_of(self, w):
        """The Apple enum type of an expression made of that enum's enumerators (| of them)."""
        w = written(w)
        if w.get("kind") == "DeclRefExpr":
            name = w.get("referencedDecl", {}).get("name")
            e = self.db["enums"].get(name)
            return e["type"] if e else None
        if w.get("kind") == "BinaryOperator" and w.get("opcode") == "|":
            a, b = (self.enum_of(x) for x in w.get("inner", [{}, {}]))
            return a if a == b else None
        if w.get("kind") == "ConditionalOperator":
            a, b = (self.enum_of(x) for x in w.get("inner", [{}, {}, {}])[1:])
            return a if a == b else None
        if w.get("kind") == "CStyleCastExpr":
            t = self.types.classify(qual(w)[0])
            return t[3] if t[0] == "int" else None
        return None

    def mismatch(self, have, want, w, arg):
        """Why an argument of type `have` does not fit a parameter of type `want`, or None."""
        wk, hk = want[0], have[0]
        if wk == "unknown" or want is None:
            return f"Apple's type is not understood here: {want}"
        if wk == "object":
            if self.null_constant(arg):
                return None
            if hk != "object":
                return "not an object"
            return None if self.types.conforms(have, want) else "does not conform"
        if wk == "class":
            return None if hk in ("class", "object") else "not a class"
        if wk == "block":
            if hk != "block":
                return "not a block"
            return self.block_mismatch(have[1], want[1])
        if wk == "pointer":
            if self.null_constant(arg):
                return None
            if hk == "object" and want[1] == ("void",):
                return None  # an object passed as a void * (a retained pointer in a C struct)
            if hk != "pointer":
                return "not a pointer"
            if have[2] and not want[2]:
                return "drops const"
            if want[1] == ("void",) or want[1] == have[1]:
                return None
            if want[1][0] == "int" and have[1][0] == "int" and want[1][1:3] == have[1][1:3]:
                return None
            if want[1][0] == "object" and have[1][0] == "object" and \
                    self.types.conforms(have[1], want[1]):
                return None
            return "points to another type"
        if wk == "struct":
            return None if have == want else "another struct"
        if wk == "bool":
            if hk == "bool":
                return None
            v = self.constant_value(w)
            if v in (0, 1) and hk == "int" and have[3] is None:
                return None
            if w.get("kind") in ("BinaryOperator",) and w.get("opcode") in \
                    ("==", "!=", "<", ">", "<=", ">=", "&&", "||"):
                return None
            if w.get("kind") == "UnaryOperator" and w.get("opcode") == "!":
                return None
            return "not a truth value"
        if wk == "float":
            if hk == "float" or (hk == "int" and self.constant_value(w) is not None and
                                 have[3] is None):
                return None
            return "not a floating-point value"
        if wk == "int":
            bits, signed, enum = want[1], want[2], want[3]
            if hk == "bool":
                return "a truth value, not an integer"
            if hk != "int":
                return f"not an integer"
            hbits, hsigned, henum = have[1], have[2], have[3]
            if enum:
                written_enum = self.enum_of(w)
                if henum == enum or written_enum == enum:
                    return None
                henum = henum or written_enum
                if henum:
                    return f"a {henum}, not a {enum}"
                if w.get("kind") == "IntegerLiteral":
                    return f"a bare number where Apple names the {enum} values"
                return f"an untyped integer where Apple declares {enum}: cast it or use its values"
            henum = henum or self.enum_of(w)
            if henum:
                return f"a {henum} value where Apple declares a plain integer"
            v = self.constant_value(w)
            if v is not None and henum is None:
                lo = -(1 << (bits - 1)) if signed else 0
                hi = (1 << (bits - 1)) - 1 if signed else (1 << bits) - 1
                return None if lo <= v <= hi else "out of range"
            if hbits > bits:
                return f"narrowed from {hbits} to {bits} bits"
            if hsigned and not signed:
                return "signed where Apple declares unsigned"
            if not hsigned and signed and hbits == bits:
                return "unsigned where Apple declares signed of the same width"
            return None
        if wk == "void":
            return "Apple declares no value here"
        return f"unhandled kind {wk}"

    def block_mismatch(self, have, want):
        def params(t):
            m = re.search(r"\(\^\w*\)\((.*)\)$", t)
            if not m:
                return None
            inner = m.group(1).strip()
            return [] if inner in ("", "void") else [x.strip() for x in inner.split(",")]

        hp, wp = params(have), params(self.types.resolve_typedef(want) if "(^" not in want
                                          else want)
        if wp is None:
            td = self.db["typedefs"].get(want)
            wp = params(td["type"]) if td else None
        if hp is None or wp is None:
            return None if hp == wp else "a block of another shape"
        if len(hp) != len(wp):
            return f"a block of {len(hp)} parameter(s), Apple's takes {len(wp)}"
        for h, wt in zip(hp, wp):
            ch, cw = self.types.classify(h), self.types.classify(wt)
            if cw[0] == "object" and ch[0] == "object" and self.types.conforms(cw, ch):
                continue
            if ch != cw:
                return f"block parameter {h} where Apple passes {wt}"
        return None

    # ---- results ----------------------------------------------------------------------------
    def result(self, n, what, m, recv_type):
        apple_text = self.apple_type(m["retval"])
        apple = self.types.classify(apple_text)
        if m["retval"].get("instancetype") or apple_text == "instancetype":
            cls, protos = recv_type
            apple = ("object", cls, frozenset(protos))
        stand = self.types.classify(qual(n)[0])
        if not m.get("hand") and not self.same_result(stand, apple):
            self.error(n, f"{what}: the stand-in declares it to return {qual(n)[0]}, Apple "
                          f"{apple_text}: regenerate tests/runtime/metal/sdk")
        parent = n.get("_parent") or {}
        # a property's getter message is the value of the PseudoObjectExpr around it
        while parent.get("kind") in ("ParenExpr", "PseudoObjectExpr"):
            parent = parent.get("_parent") or {}
        pk = parent.get("kind")
        if pk == "ImplicitCastExpr":
            ck = parent.get("castKind")
            dest = self.types.classify(qual(parent)[0])
            if ck == "IntegralCast" and apple[0] == "int" and dest[0] == "int" and \
                    dest[1] < apple[1]:
                self.error(n, f"{what} returns {apple_text} ({apple[1]} bits), narrowed to "
                              f"{qual(parent)[0]} without a cast")
            if ck == "BitCast" and apple[0] == "object" and dest[0] == "object" and \
                    not self.types.conforms(apple, dest):
                self.error(n, f"{what} returns {apple_text}, used as {qual(parent)[0]}")
            if apple[0] == "void":
                self.error(n, f"{what} returns nothing, but its value is used")
        elif pk in ("CompoundStmt",) and OWNING.match(n["selector"]) and apple[0] == "object":
            self.error(n, f"{what} returns an object the caller owns (+1), and it is discarded")

    def same_result(self, stand, apple):
        if stand == apple:
            return True
        if stand[0] == apple[0] == "object":
            if apple[1] is None and not apple[2]:
                return True  # Apple's id (or a generic ObjectType), specialised by clang
            if not stand[1] and not stand[2]:
                return True  # clang's id for an unspecialised generic
            return stand[1] == apple[1] and set(apple[2]) <= set(stand[2])
        if stand[0] == apple[0] == "int":
            return stand[1:3] == apple[1:3] and (stand[3] == apple[3] or not apple[3])
        return False

    # ---- functions, enumerators, casts ------------------------------------------------------
    def call(self, n):
        callee = (n.get("inner") or [{}])[0]
        while callee.get("kind") in ("ImplicitCastExpr", "ParenExpr") and callee.get("inner"):
            callee = callee["inner"][0]
        ref = callee.get("referencedDecl", {})
        name = ref.get("name")
        fn = self.db["functions"].get(name)
        if ref.get("kind") != "FunctionDecl" or fn is None:
            return
        self.counts["functions"] += 1
        self.used["functions"].add(name)
        args = n.get("inner", [])[1:]
        fixed = [a for a in fn["args"] if not (a.get("typestr") == "v" and not a.get("type_name"))]
        if len(args) < len(fixed) or (len(args) > len(fixed) and not fn["variadic"]):
            self.error(n, f"{name} takes {len(fixed)} argument(s), {len(args)} given")
            return
        for i, (a, slot) in enumerate(zip(args, fixed)):
            self.argument(n, name, i, a, slot)
        ret = self.renderer.function_type(name, fn)
        m = {"retval": {"type_name": ret}, "args": fixed}
        self.result(dict(n, selector=name), name, m, recv_type=(None, ()))
        self.note_api(n, name, fn.get("introduced"), fn.get("deprecated"))

    def enum_ref(self, n):
        ref = n.get("referencedDecl", {})
        if ref.get("kind") == "VarDecl" and ref.get("name") in self.db["externs"]:
            # an Apple constant (MTLLibraryErrorDomain, ...): it exists, with its availability
            x = self.db["externs"][ref["name"]]
            self.counts["constants"] += 1
            self.used["constants"].add(ref["name"])
            n["_api"] = (ref["name"], x.get("introduced"))
            return
        if ref.get("kind") != "EnumConstantDecl":
            return
        name = ref.get("name")
        e = self.db["enums"].get(name)
        if e is None:
            return
        self.counts["enumerators"] += 1
        self.used["enumerators"].add(name)
        decl = self.enum_decls.get(ref.get("id"))
        value = decl[1] if decl else None
        if value != e["value"]:
            self.error(n, f"{name} is {value} in the stand-in, {e['value']} in Apple's "
                          "declarations")
        self.metal_cpp_enum(n, name, e["value"])
        self.note_enum(n, name, e)

    def mirror(self, n):
        """An enumerator of the sources named GP_<Apple's name> must have Apple's value."""
        name = n["name"]
        if not name.startswith("GP_"):
            return
        apple = name[3:]
        e = self.db["enums"].get(apple)
        if e is None:
            if re.match(r"GP_(MTL|MPS|NS)[A-Z]", name):
                self.error(n, f"{name} is named after {apple}, which Apple does not declare")
            return
        self.counts["mirrors"] += 1
        self.used["enumerators"].add(apple)
        value = self.enum_decls.get(n["id"], (None, None))[1]
        if value != e["value"]:
            self.error(n, f"{name} is {value}, but Apple's {apple} is {e['value']}")
        self.metal_cpp_enum(n, apple, e["value"])

    def cast(self, n):
        """A cast to an Apple enum type must cast a named value (an enumerator of it, or a
        GP_ mirror of one), a variable, or a computation of them: never a bare number."""
        t = self.types.classify(qual(n)[0])
        if t[0] != "int" or not t[3]:
            return
        self.counts["casts"] += 1
        for c in walk(n):
            if c.get("kind") == "IntegerLiteral":
                self.error(c, f"a number cast to {t[3]}: name Apple's value "
                              f"(GP_<name> for one older SDKs lack)")
                return
            if c.get("kind") == "DeclRefExpr":
                ref = c.get("referencedDecl", {})
                if ref.get("kind") == "EnumConstantDecl":
                    apple = ref["name"][3:] if ref["name"].startswith("GP_") else ref["name"]
                    e = self.db["enums"].get(apple)
                    if e and e["type"] != t[3]:
                        self.error(c, f"{ref['name']} is a {e['type']} value, cast to {t[3]}")

    def for_in(self, n):
        coll = n.get("inner", [None, None])[1]
        if not coll:
            return
        t = self.types.classify(qual(written(coll))[0])
        if t[0] != "object" or not self.types.conforms(t, ("object", None,
                                                           frozenset({"NSFastEnumeration"}))):
            self.error(n, f"for-in over {qual(written(coll))[0]}, which Apple does not declare "
                          "NSFastEnumeration")
        self.counts["messages"] += 1  # countByEnumeratingWithState:objects:count:
        self.used["selectors"].add(("NSFastEnumeration", "-countByEnumeratingWithState:objects:count:"))

    def implementation(self, n):
        """A method the sources' own class overrides must have Apple's signature."""
        cls = n.get("name")
        sup = self.own_classes.get(cls)
        for m in n.get("inner", []):
            if m.get("kind") != "ObjCMethodDecl":
                continue
            key = ("-" if m.get("instance") else "+") + m["name"]
            apple, found = self.lookup(key, sup)
            if apple is None:
                continue
            mine = self.method_from_decl(m)
            if len(mine["args"]) != len(apple["args"]) or \
                    self.types.classify(mine["retval"]["type_name"])[0] != \
                    self.types.classify(self.apple_type(apple["retval"]))[0]:
                self.error(m, f"{cls} overrides {key} of {found[1]} with another signature")

    # ---- availability -----------------------------------------------------------------------
    def note_api(self, n, what, intro, dep):
        n["_api"] = (what, intro)

    def note_enum(self, n, name, e):
        if e["type"] in QUERY_ONLY_ENUMS:
            return
        n["_api"] = (name, e.get("introduced"))

    def availability(self, guards):
        for n in walk(self.ast):
            if n.get("kind") == "DeclRefExpr" and self.in_file(n):
                ref = n.get("referencedDecl", {})
                if ref.get("kind") == "EnumConstantDecl" and ref["name"].startswith("GP_"):
                    e = self.db["enums"].get(ref["name"][3:])
                    if e and e["type"] not in QUERY_ONLY_ENUMS:
                        n["_api"] = (ref["name"], e.get("introduced"))
        guard_of = {}
        for ifs, cond in guards:
            self.counts["guards"] += 1
            v = self.guard_version(cond)
            if v is None:
                self.error(cond, "an @available guard without a macOS version")
                continue
            then = (ifs.get("inner") or [None, None])[1]
            newest = None
            for c in walk(then):
                guard_of[c["id"]] = max(guard_of.get(c["id"], v), v, key=version)
                api = c.get("_api")
                if api and api[1] and (newest is None or version(api[1]) > version(newest[1])):
                    newest = api
            if newest is None:
                self.error(cond, f"@available(macOS {v}) guards no API of Apple's")
            elif version(newest[1]) != version(v):
                self.error(cond, f"@available(macOS {v}) does not match what it guards: the "
                                 f"newest, {newest[0]}, needs macOS {newest[1]}")
        for n in walk(self.ast):
            if "_api" not in n or not self.in_file(n):
                continue
            what, intro = n["_api"]
            if not intro:
                continue
            floor = max(MIN_MACOS, guard_of.get(n["id"], MIN_MACOS), key=version)
            if version(intro) > version(floor):
                self.error(n, f"{what} needs macOS {intro}, but it is reached on macOS {floor} "
                              f"(add @available(macOS {intro}, *))")

    def guard_version(self, cond):
        b = cond["range"]["begin"]
        e = cond["range"]["end"]
        start = b.get("offset")
        end = e.get("offset", start) + e.get("tokLen", 1)
        text = self.text.encode("utf-8")[start:end].decode("utf-8", "replace")
        m = re.search(r"macOS\s+([0-9.]+)", text)
        return m.group(1) if m else None

    # ---- metal-cpp --------------------------------------------------------------------------
    def metal_cpp_selector(self, n, found, sel, m):
        kind, name = found
        if kind == "hand":
            # metal-cpp's NS::Object renders the root's alloc, init, retain, release,
            # autorelease, retainCount, copy, hash, isEqual:, description and
            # respondsToSelector:; not these
            cpp = self.db["metal_cpp"]["classes"].get("NS::Object", {})
            if sel not in cpp and sel not in ("dealloc", "new", "mutableCopy", "isKindOfClass:"):
                self.error(n, f"{sel} of the hand-kept NSObject root: metal-cpp's NS::Object "
                              "does not declare it")
            return
        mm = re.fullmatch(r"(MTL4|MTL|NS|CA)(\w+)", name)
        if not mm:
            return
        cpp_name = f"{mm.group(1)}::{mm.group(2)}"
        classes = self.db["metal_cpp"]["classes"]
        if cpp_name not in classes:
            return  # metal-cpp does not render this class: PyObjC's scan is the only source
        chain, c = [], cpp_name
        while c and c not in chain:
            chain.append(c)
            c = self.db["metal_cpp"]["bases"].get(c)
        chain.append("NS::Object")
        if not any(sel in classes.get(c, {}) for c in chain):
            if m.get("deprecated") or not name.startswith("MTL"):
                return  # metal-cpp renders only part of Foundation, and few deprecated methods
            self.error(n, f"metal-cpp's {cpp_name} has no {sel}, which PyObjC's scan gives "
                          f"{name}: the two renderings of Apple's headers disagree")
        else:
            n["_cpp"] = True

    def metal_cpp_enum(self, n, name, value):
        cpp = self.db["metal_cpp"]["enums"]
        if name in cpp and cpp[name] != value:
            self.error(n, f"{name}: metal-cpp says {cpp[name]}, PyObjC's scan {value}")


def dump_ast(path, flags):
    p = subprocess.run(["clang"] + flags + ["-Xclang", "-ast-dump=json", path],
                       capture_output=True, text=True)
    try:
        ast = json.loads(p.stdout)
    except json.JSONDecodeError:
        ast = None
    return p.returncode, ast, p.stderr


def check_files(files, db, report, stats):
    failed = False
    for path in files:
        # compiled as the syntax check does (warnings as errors), then parsed again without
        # -Werror so that the AST is there whatever the compiler said
        flags = clang_flags()
        p = subprocess.run(["clang"] + flags + [path], capture_output=True, text=True)
        if p.returncode != 0:
            failed = True
            for line in p.stderr.splitlines():
                if ": error:" in line or ": warning:" in line:
                    report(line)
        rc, ast, err = dump_ast(path, [f for f in flags if f != "-Werror"])
        if ast is None:
            report(f"{path}:1:1: error: clang could not parse it:\n{err}")
            failed = True
            continue
        annotate(ast, {})
        with open(path, encoding="utf-8") as f:
            text = f.read()
        c = Checker(db, path, ast, text, report)
        c.run()
        for k, v in c.counts.items():
            stats[k] = stats.get(k, 0) + v
        for k, v in c.used.items():
            stats.setdefault("used_" + k, set()).update(v)
    return failed


def default_files():
    out = []
    for pattern in generate.MAC_SOURCES:
        out += [p for p in sorted(glob.glob(os.path.join(sdk.SOURCE_DIR, pattern)))
                if p.endswith(".m")]
    return out


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="*")
    ap.add_argument("--summary", action="store_true", help="print what was checked")
    args = ap.parse_args(argv[1:])
    db = sdk.load_or_skip()
    problems = []
    stats = {}

    def report(line):
        if line not in problems:
            problems.append(line)

    failed = check_files(args.files or default_files(), db, report, stats)
    for p in problems:
        print(p)
    if args.summary:
        print(f"checked: {stats.get('messages', 0)} messages "
              f"({len(stats.get('used_selectors', ()))} distinct methods), "
              f"{stats.get('functions', 0)} function calls "
              f"({len(stats.get('used_functions', ()))} functions), "
              f"{stats.get('enumerators', 0)} uses of Apple's enumerators and "
              f"{stats.get('mirrors', 0)} GP_ mirrors "
              f"({len(stats.get('used_enumerators', ()))} distinct), "
              f"{stats.get('casts', 0)} casts to Apple's enums, "
              f"{stats.get('constants', 0)} uses of Apple's other constants, "
              f"{stats.get('guards', 0)} @available guards")
    return 1 if problems or failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
