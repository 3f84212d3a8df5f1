"""sdk.py — Apple's own declarations of Metal, MetalPerformanceShaders and Foundation, read on
Linux from the PyPI packages of scripts/deps/apple-declarations.txt, as one database.

Fetched once with pip into a cache (GPUPORT_APPLE_CACHE, else $XDG_CACHE_HOME/gpuport/
apple-declarations, else ~/.cache/gpuport/apple-declarations), one folder per set of pins,
guarded by a lock so that tests running side by side share it. The database (db.json there):
  - PyObjC's scans of the macOS SDK headers (metadata/raw/arm64-*.fwinfo in the sdists): every
    class, protocol, method with argument and return types and availability, property, enum,
    struct, typedef and function of each framework;
  - the first SDK whose PyObjC enum table has each Metal/MPS enumerator (the scans drop the
    availability of enumerators; older PyObjC wheels, one per SDK, keep their enum tables);
  - metal-cpp (in the mlx-metal wheel): Apple's C++ rendering of Metal and Foundation, for a
    second opinion on selectors and enum values, and the return types of Metal's functions,
    which PyObjC's scan records only as "an object".
"""

import contextlib
import fcntl
import glob
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE_DIR = os.path.abspath(os.path.join(HERE, "..", "..", "..", ".."))
PINS = os.path.join(SOURCE_DIR, "scripts", "deps", "apple-declarations.txt")
DB_VERSION = 4  # bump when the database layout changes

# PyObjC's frameworks: the sdist and the folder of its raw scan inside it.
PYOBJC_SCANS = {
    "pyobjc-framework-Metal": [("Metal", "metadata/raw")],
    "pyobjc-framework-MetalPerformanceShaders": [("MetalPerformanceShaders", "metadata/raw")],
    "pyobjc-framework-Cocoa": [
        ("Foundation", "metadata/raw.Foundation"),
        ("CoreFoundation", "metadata/raw.CoreFoundation"),
    ],
}
HISTORY_MODULE = {
    "pyobjc-framework-Metal": "Metal",
    "pyobjc-framework-MetalPerformanceShaders": "MetalPerformanceShaders",
}


class Unreachable(Exception):
    """The package registry could not be reached (the only reason to skip)."""


class FetchError(Exception):
    """pip or a package failed in a way that is not the network's fault."""


# ---- pins and cache --------------------------------------------------------------------------
def read_pins(path=PINS):
    pins = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            parts = line.split()
            kind, req = parts[0], parts[1]
            opts = dict(p.split("=", 1) for p in parts[2:])
            if kind not in ("wheel", "sdist", "history") or "==" not in req:
                raise FetchError(f"{path}:{n}: expected '<wheel|sdist|history> name==version'")
            name, version = req.split("==", 1)
            pins.append({"kind": kind, "name": name, "version": version, "sdk": opts.get("sdk")})
    return pins


def cache_root():
    if os.environ.get("GPUPORT_APPLE_CACHE"):
        return os.environ["GPUPORT_APPLE_CACHE"]
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "gpuport", "apple-declarations")


def cache_dir(pins_path=PINS):
    with open(pins_path, "rb") as f:
        digest = hashlib.sha256(f.read() + b"db%d" % DB_VERSION).hexdigest()[:16]
    return os.path.join(cache_root(), digest)


# ---- fetching --------------------------------------------------------------------------------
NETWORK_ERRORS = re.compile(
    r"NewConnectionError|Max retries exceeded|Temporary failure in name resolution|"
    r"Name or service not known|Network is unreachable|Connection refused|ConnectTimeout|"
    r"ReadTimeout|timed out|No route to host|ProxyError|SSLError|getaddrinfo failed|"
    r"Failed to establish a new connection|There was a problem confirming the ssl")


def pip_download(args, dest, env_extra=None):
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--disable-pip-version-check",
           "--no-input", "--timeout", "20", "--retries", "2", "-d", dest] + args
    env = dict(os.environ)
    env.update(env_extra or {})
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=900)
    except FileNotFoundError as e:
        raise FetchError(f"cannot run pip: {e}")
    if p.returncode != 0:
        out = p.stdout + p.stderr
        if "No module named pip" in out:
            raise FetchError(f"{sys.executable} has no pip; install python3-pip")
        if NETWORK_ERRORS.search(out):
            raise Unreachable("PyPI could not be reached: " +
                              NETWORK_ERRORS.search(out).group(0))
        raise FetchError(f"{' '.join(cmd[3:])} failed:\n{out[-3000:]}")


def fetch_pin(pin, dest):
    req = f"{pin['name']}=={pin['version']}"
    if pin["kind"] == "wheel":
        pip_download(["--only-binary=:all:", "--platform", "macosx_15_0_arm64",
                      "--python-version", "3.12", req], dest)
    elif pin["kind"] == "history":
        pip_download(["--only-binary=:all:", "--platform", "macosx_11_0_universal2",
                      "--platform", "macosx_10_9_universal2", "--platform", "macosx_10_9_x86_64",
                      "--python-version", "3.9", req], dest)
    else:
        # pip prepares an sdist's metadata before it saves it; PyObjC's setup.py asks
        # /usr/bin/sw_vers for the macOS version unless CFLAGS name an SDK with -isysroot (it only
        # reads the version from the name; nothing is built). The installed setuptools does that
        # step, so no build environment is downloaded.
        sdk = pin["sdk"] or "26.0"
        pip_download(["--no-binary=:all:", "--no-build-isolation", req], dest,
                     {"CFLAGS": f"-isysroot /nonexistent/MacOSX{sdk}.sdk"})


def _one(pattern, what):
    found = sorted(glob.glob(pattern))
    if len(found) != 1:
        raise FetchError(f"expected one {what} ({pattern}), found {len(found)}")
    return found[0]


def _pin_dir(pin):
    return f"{pin['kind']}-{pin['name']}-{pin['version']}"


def unpack(pins, dl, out):
    """Extracts what the database needs from the downloads in dl into out."""
    os.makedirs(out, exist_ok=True)
    for pin in pins:
        where = os.path.join(dl, _pin_dir(pin))
        if pin["kind"] == "wheel":
            whl = _one(os.path.join(where, "*.whl"), f"{pin['name']} wheel")
            with zipfile.ZipFile(whl) as z:
                for n in z.namelist():
                    if n.startswith(("mlx/include/metal_cpp/",
                                     "mlx/include/mlx/backend/metal/kernels/")):
                        z.extract(n, os.path.join(out, "mlx"))
        elif pin["kind"] == "history":
            mod = HISTORY_MODULE[pin["name"]]
            whl = _one(os.path.join(where, "*.whl"), f"{pin['name']} {pin['version']} wheel")
            with zipfile.ZipFile(whl) as z:
                data = z.read(f"{mod}/_metadata.py")
            with open(os.path.join(out, f"history-{mod}-{pin['version']}.py"), "wb") as f:
                f.write(data)
        else:
            tgz = _one(os.path.join(where, "*.tar.gz"), f"{pin['name']} sdist")
            with tarfile.open(tgz) as t:
                for fw, sub in PYOBJC_SCANS[pin["name"]]:
                    members = [m for m in t.getmembers()
                               if re.search(rf"/{re.escape(sub)}/arm64-[0-9.]+\.fwinfo$", m.name)]
                    if len(members) != 1:
                        raise FetchError(f"{tgz}: no single {sub}/arm64-*.fwinfo")
                    data = t.extractfile(members[0]).read()
                    sdk = re.search(r"arm64-([0-9.]+)\.fwinfo$", members[0].name).group(1)
                    with open(os.path.join(out, f"scan-{fw}.fwinfo"), "wb") as f:
                        f.write(data)
                    with open(os.path.join(out, f"scan-{fw}.sdk"), "w") as f:
                        f.write(sdk + "\n")


@contextlib.contextmanager
def locked(path):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def ensure(pins_path=PINS, log=None):
    """The cache folder holding db.json and the extracted headers, fetched when missing.
    Raises Unreachable when PyPI cannot be reached, FetchError on other failures."""
    log = log or (lambda s: None)
    pins = read_pins(pins_path)
    top = cache_dir(pins_path)
    with locked(top + ".lock"):
        if not os.path.exists(os.path.join(top, "db.json")):
            fetch_all(pins, top, log)
    forget_others(top)
    return top


def fetch_all(pins, top, log):
    """Downloads, unpacks and builds the database into top (the lock is held)."""
    work = tempfile.mkdtemp(prefix=".fetch-", dir=os.path.dirname(top))
    try:
        dl = os.path.join(work, "downloads")
        for pin in pins:
            log(f"fetching {pin['name']}=={pin['version']} ({pin['kind']})")
            fetch_pin(pin, os.path.join(dl, _pin_dir(pin)))
        out = os.path.join(work, "data")
        unpack(pins, dl, out)
        db = build_db(out, pins)
        with open(os.path.join(out, "db.json"), "w") as f:
            json.dump(db, f, sort_keys=True)
        if os.path.exists(top):
            shutil.rmtree(top)
        os.rename(out, top)  # whole or not at all
    finally:
        shutil.rmtree(work, ignore_errors=True)


def forget_others(keep):
    """Removes the cache folders of other pins (older versions), unless one is in use."""
    root = os.path.dirname(keep)
    for name in os.listdir(root):
        path = os.path.join(root, name)
        if path == keep or not re.fullmatch(r"[0-9a-f]{16}", name):
            continue
        with open(path + ".lock", "w") as f:
            try:
                fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                continue
            shutil.rmtree(path, ignore_errors=True)
            os.remove(path + ".lock")


def load(pins_path=PINS):
    top = ensure(pins_path, log=lambda s: print(s, file=sys.stderr, flush=True))
    with open(os.path.join(top, "db.json")) as f:
        db = json.load(f)
    db["_dir"] = top
    return db


# ---- PyObjC's scans --------------------------------------------------------------------------
def read_fwinfo(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    return json.loads(text[text.index("{"):])  # after the "GENERATED FILE" comment lines


def _method(m):
    out = {
        "args": [_slot(a) for a in m["args"]],
        "retval": _slot(m["retval"]),
        "introduced": m.get("introduced"),
        "deprecated": m.get("deprecated"),
    }
    if m.get("variadic"):
        out["variadic"] = True
    if m.get("required") is False:
        out["optional"] = True
    return out


def _slot(a):
    out = {"type_name": a.get("type_name"), "typestr": a.get("typestr")}
    if a.get("name"):
        out["name"] = a["name"]
    if a.get("callable"):
        out["callable"] = a["callable"]
    if a.get("instancetype"):
        out["instancetype"] = True
    return out


def _members(entry):
    methods = {}
    for m in entry.get("methods", []):
        methods[("+" if m.get("class_method") else "-") + m["selector"]] = _method(m)
    props = {}
    for p in entry.get("properties", []):
        attrs, getter, setter = [], p["name"], None
        for a in p.get("attributes", []):
            if isinstance(a, list) and a[0] == "getter":
                getter = a[1]
            elif isinstance(a, list) and a[0] == "setter":
                setter = a[1]
            elif isinstance(a, str):
                attrs.append(a)
        props[p["name"]] = {"type_name": p.get("type_name"), "typestr": p.get("typestr"),
                            "attributes": sorted(attrs), "getter": getter,
                            "setter": None if "readonly" in attrs else
                            (setter or "set" + p["name"][0].upper() + p["name"][1:] + ":")}
    return methods, props


def add_scan(db, fw, raw):
    d = raw["definitions"]
    for name, c in d.get("classes", {}).items():
        methods, props = _members(c)
        db["classes"][name] = {"framework": fw, "super": c.get("super"),
                               "protocols": c.get("protocols", []),
                               "generic": c.get("template_parameters", []),
                               "methods": methods, "properties": props}
    for name, p in d.get("formal_protocols", {}).items():
        methods, props = _members(p)
        db["protocols"][name] = {"framework": fw, "implements": p.get("implements", []),
                                 "methods": methods, "properties": props}
    for name, e in d.get("enum", {}).items():
        db["enums"][name] = {"framework": fw, "type": e.get("enum"), "value": e["value"]}
    for name, t in d.get("enum_type", {}).items():
        db["enum_types"][name] = {"framework": fw, "typestr": t["type"]}
    for name, t in d.get("typedefs", {}).items():
        db["typedefs"].setdefault(name, {"framework": fw, "type": t})
    for name, s in d.get("structs", {}).items():
        db["structs"].setdefault(name, {"framework": fw, "fields": s["fieldnames"],
                                        "typestr": s["typestr"]})
    for name, fn in d.get("functions", {}).items():
        db["functions"][name] = {"framework": fw, "args": [_slot(a) for a in fn["args"]],
                                 "retval": _slot(fn["retval"]),
                                 "introduced": fn.get("introduced"),
                                 "deprecated": fn.get("deprecated"),
                                 "inline": bool(fn.get("inline")),
                                 "variadic": bool(fn.get("variadic"))}
    for name, x in d.get("externs", {}).items():
        db["externs"][name] = {"framework": fw, "type_name": x.get("type_name"),
                               "typestr": x.get("typestr"), "introduced": x.get("introduced")}
    for name, target in d.get("aliases", {}).items():
        db["aliases"][name] = target


# ---- enumerator history ----------------------------------------------------------------------
def history_enums(path):
    """{name: value} of a PyObjC _metadata.py's enum table ("$NAME@VALUE$...")."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    m = re.search(r'^enums = """(.*?)"""', text, re.S | re.M)
    if not m:
        raise FetchError(f"{path}: no enum table")
    out = {}
    for item in m.group(1).split("$"):
        if "@" in item:
            k, v = item.split("@", 1)
            try:
                out[k] = int(v)
            except ValueError:
                out[k] = v
    return out


def _version_key(v):
    return tuple(int(x) for x in v.split("."))


def date_enumerators(db, data, pins):
    """Each Metal/MPS enumerator's first SDK (major version) among the history tables and the
    latest scan; "since" is the oldest table's SDK when it was in it already."""
    for fw in set(HISTORY_MODULE.values()):
        tables = []
        for pin in pins:
            if pin["kind"] == "history" and HISTORY_MODULE.get(pin["name"]) == fw:
                tables.append((pin["sdk"], history_enums(
                    os.path.join(data, f"history-{fw}-{pin['version']}.py"))))
        tables.sort(key=lambda t: _version_key(t[0]))
        if not tables:
            continue
        for name, e in db["enums"].items():
            if e["framework"] != fw:
                continue
            first = None
            for sdk, table in tables:
                if name in table:
                    first = sdk
                    break
            if first is None:
                first = db["scan_sdk"][fw].split(".")[0] + ".0"
            e["introduced"] = first
            e["dated_from"] = "oldest" if first == tables[0][0] else "history"
        db["history"][fw] = [t[0] for t in tables]


# ---- metal-cpp -------------------------------------------------------------------------------
def _cpp_eval(expr, names):
    e = expr.strip()
    e = re.sub(r"\bNS::UIntegerMax\b", str(2**64 - 1), e)
    e = re.sub(r"\bNS::IntegerMax\b", str(2**63 - 1), e)
    e = re.sub(r"(?<=[0-9a-fA-F])(ULL|UL|LL|U|L)\b", "", e)
    e = re.sub(r"\b[A-Za-z_][\w:]*\b", lambda m: str(names[m.group(0)])
               if m.group(0) in names else m.group(0), e)
    if not re.fullmatch(r"[0-9a-fA-FxX<>|&~()+\- ]*", e):
        return None
    try:
        return eval(e, {"__builtins__": {}})  # digits and operators only (checked above)
    except Exception:
        return None


def _cpp_namespace(hpp):
    """metal-cpp's namespace for a header: MTL4 for Metal 4's, else by folder."""
    folder = os.path.basename(os.path.dirname(hpp))
    if os.path.basename(hpp).startswith("MTL4"):
        return "MTL4"
    return {"Foundation": "NS", "QuartzCore": "CA", "MetalFX": "MTLFX"}.get(folder, "MTL")


def read_metal_cpp(root):
    """Selectors per class (C++ class -> selector -> its C++ method), base classes, enum values
    (under their Objective-C names: MTL::ResourceStorageModeShared is MTLResourceStorageModeShared)
    and the C functions it declares."""
    sels, classes, enums, bases, functions = {}, {}, {}, {}, {}
    for hpp in sorted(glob.glob(os.path.join(root, "*", "*.hpp"))):
        with open(hpp, encoding="utf-8") as f:
            text = f.read()
        file_ns = _cpp_namespace(hpp)
        spaces = [(m.start(), m.group(1)) for m in re.finditer(r"^namespace\s+(\w+)", text, re.M)]

        def ns_at(pos):
            found = [n for p, n in spaces if p < pos]
            return found[-1] if found else file_ns
        for m in re.finditer(r'_(MTL|NS|CA|MTLFX)_PRIVATE_DEF_SEL\(\s*(\w+)\s*,\s*"([^"]+)"\s*\)',
                             text):
            sels[(m.group(1), m.group(2))] = m.group(3)
        for m in re.finditer(r"\bclass\s+(\w+)\s*:\s*public\s+NS::\w+\s*<\s*\w+\s*"
                             r"(?:,\s*([\w:]+)\s*)?>", text):
            base = m.group(2) or "NS::Object"
            ns = ns_at(m.start())
            bases[f"{ns}::{m.group(1)}"] = base if "::" in base else f"{ns}::{base}"
        for m in re.finditer(r"_(?:MTL|NS|CA|MTLFX)_(?:ENUM|OPTIONS)\(\s*[\w:]+\s*,\s*(\w+)\s*\)"
                             r"\s*\{(.*?)\}", text, re.S):
            ns = ns_at(m.start())
            local = {}
            for item in m.group(2).split(","):
                item = re.sub(r"//.*", "", item).strip()
                if not item:
                    continue
                name, _, expr = item.partition("=")
                name = name.strip()
                if not expr:
                    val = (max(v for v in local.values() if v is not None) + 1) if local else 0
                else:
                    known = {k.split("::", 1)[1]: v for k, v in enums.items()
                             if k.startswith(ns + "::")}
                    known.update({k: v for k, v in enums.items()})
                    known.update(local)
                    val = _cpp_eval(expr, known)
                local[name] = val
                enums[f"{ns}::{name}"] = val
        for m in re.finditer(r"_(?:MTL|NS|CA|MTLFX)_INLINE\s+(.+?)\s+((?:MTL4|MTLFX|MTL|NS|CA)::\w+)"
                             r"(?:<[^>]*>)?::(\w+)\s*\((.*?)\)\s*(const)?\s*\{(.*?)\n\}", text, re.S):
            cls = m.group(2)
            if cls in ("NS::Referencing", "NS::Copying", "NS::SecureCoding"):
                cls = "NS::Object"  # the templates every metal-cpp object derives from
            for s in re.finditer(r"_(MTL|NS|CA|MTLFX)_PRIVATE_SEL\(\s*(\w+)\s*\)", m.group(6)):
                classes.setdefault(cls, {})[(s.group(1), s.group(2))] = {
                    "method": m.group(3), "ret": m.group(1).strip(), "params": m.group(4).strip()}
        for m in re.finditer(r'extern\s+"C"\s+([\w:*\s]+?)\s*\b(\w+)\s*\(([^)]*)\)\s*;', text):
            functions[m.group(2)] = {"ret": m.group(1).strip(), "params": m.group(3).strip()}
    out_classes = {}
    for cls, items in classes.items():
        out_classes[cls] = {}
        for key, info in items.items():
            if key in sels:
                out_classes[cls][sels[key]] = info
    objc_enums = {}
    for k, v in enums.items():
        ns, name = k.split("::", 1)
        objc_enums[ns + name] = v
    return {"classes": out_classes, "bases": bases, "enums": objc_enums, "functions": functions,
            "selectors": sorted(set(sels.values()))}


# ---- the database ----------------------------------------------------------------------------
def build_db(data, pins):
    db = {"classes": {}, "protocols": {}, "enums": {}, "enum_types": {}, "typedefs": {},
          "structs": {}, "functions": {}, "externs": {}, "aliases": {}, "scan_sdk": {},
          "history": {}, "pins": pins}
    for fws in PYOBJC_SCANS.values():
        for fw, _ in fws:
            path = os.path.join(data, f"scan-{fw}.fwinfo")
            add_scan(db, fw, read_fwinfo(path))
            with open(os.path.join(data, f"scan-{fw}.sdk")) as f:
                db["scan_sdk"][fw] = f.read().strip()
    date_enumerators(db, data, pins)
    cpp = os.path.join(data, "mlx", "mlx", "include", "metal_cpp")
    if not os.path.isdir(os.path.join(cpp, "Metal")):
        raise FetchError("the mlx-metal wheel has no mlx/include/metal_cpp")
    db["metal_cpp"] = read_metal_cpp(cpp)
    return db


def in_ci():
    """CI machines set $CI; there the registry must be reachable, and a skip is a failure."""
    return os.environ.get("CI", "").lower() not in ("", "0", "false", "no")


def load_or_skip(pins_path=PINS):
    """The database for a command-line tool: on an unreachable registry it says SKIP and exits
    77, the test suite's code for a skip (outside CI; in CI it fails)."""
    try:
        return load(pins_path)
    except Unreachable as e:
        if in_ci():
            print(f"FAIL: {e} (in CI the package registry must be reachable)")
            sys.exit(1)
        print(f"SKIP: {e}")
        sys.exit(77)
    except FetchError as e:
        print(f"FAIL: {e}")
        sys.exit(1)


def msl_headers(db):
    return os.path.join(db["_dir"], "mlx", "mlx", "include", "mlx", "backend", "metal", "kernels")


def main(argv):
    """`sdk.py fetch`: fills the cache and prints its folder; exit 0 done, 77 unreachable
    (SKIP; a failure in CI), 1 any other failure."""
    if argv[1:2] != ["fetch"]:
        print("usage: sdk.py fetch", file=sys.stderr)
        return 2
    db = load_or_skip()
    print(db["_dir"])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
