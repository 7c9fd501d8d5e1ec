/**
 * verl-tool's `PRE_IMPORT_LIBS` (its python_code tool runs every call with them, so code written for
 * it may use `sqrt`, `Counter` or `json` unimported), less its `sys.setrecursionlimit(6*10**5)`: in
 * wasm that limit would overflow the interpreter's stack before Python raised RecursionError.
 */
export const PRE_IMPORTS = [
  'string', 're', 'datetime', 'collections', 'heapq', 'bisect', 'copy', 'math', 'random', 'statistics', 'itertools', 'functools', 'operator', 'io', 'sys', 'json', 'builtins', 'typing',
]
  .map((name) => `from ${name} import *`)
  .concat(['import string\nimport re\nimport datetime\nimport collections\nimport heapq\nimport bisect\nimport copy\nimport math\nimport random\nimport statistics\nimport itertools\nimport functools\nimport operator\nimport io\nimport sys\nimport json'])
  .join('\n');

/**
 * Python run once when the interpreter starts: the import guard and `_saccade_run_call`, which runs
 * one call in a fresh namespace and a fresh scratch folder (`/scratch`, the working directory, in
 * memory) and puts the interpreter back as it found it (builtins, modules, sys.path, environment,
 * recursion limit, standard streams), so one call's changes do not reach the next.
 */
export const SANDBOX_PRELUDE = String.raw`
import builtins, io, os, shutil, sys, traceback, linecache
import importlib.abc

_SCRATCH = '/scratch'
_BLOCKED = ('js', 'pyodide_js', 'micropip', 'pyodide.http', 'pyodide.ffi', 'pyodide_http', '_pyodide_core')
_PRE_IMPORTS = __PRE_IMPORTS__


class _SandboxImportGuard(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if any(name == blocked or name.startswith(blocked + '.') for blocked in _BLOCKED):
            raise ImportError(f"the module {name!r} is not available in the sandbox (no JavaScript, no network, no package installs)")
        return None


class _SandboxMissingModule(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if path is None:
            raise ModuleNotFoundError(f"No module named {name!r} (the sandbox has Python's standard library only: no numpy, PIL or other packages)", name=name)
        return None


for _name in list(sys.modules):
    if any(_name == blocked or _name.startswith(blocked + '.') for blocked in _BLOCKED[:2]):
        del sys.modules[_name]
sys.meta_path.insert(0, _SandboxImportGuard())
# Before Pyodide's own finder, whose message offers micropip (which cannot install anything here).
_position = next((index for index, finder in enumerate(sys.meta_path) if 'pyodide' in type(finder).__module__.lower() or 'Js' in type(finder).__name__), len(sys.meta_path))
sys.meta_path.insert(_position, _SandboxMissingModule())
sys.meta_path.append(_SandboxMissingModule())


class Image:
    """An image of the episode: width, height, rgb (bytes, 3 a pixel, row by row), path (its PNG/JPEG file)."""

    def __init__(self, width, height, rgb, path):
        self.width = width
        self.height = height
        self.rgb = rgb
        self.path = path

    def pixel(self, x, y):
        """The (r, g, b) at column x, row y."""
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise IndexError(f"pixel ({x}, {y}) is outside the {self.width}x{self.height} image")
        at = (y * self.width + x) * 3
        return (self.rgb[at], self.rgb[at + 1], self.rgb[at + 2])

    def __repr__(self):
        return f"Image(width={self.width}, height={self.height}, path={self.path!r})"


# Imported now, so that each call's pre-imports find them loaded and no call pays for them.
exec(_PRE_IMPORTS, {})
import ast, base64, decimal, fractions, struct, zlib, binascii, textwrap, csv
_RECURSION_CEILING = 2000
_set_recursion_limit = sys.setrecursionlimit


def _bounded_recursion_limit(limit):
    '''Deeper recursion would overflow the wasm stack before Python noticed: the limit stays at most _RECURSION_CEILING.'''
    _set_recursion_limit(min(int(limit), _RECURSION_CEILING))


sys.setrecursionlimit = _bounded_recursion_limit
_BASE_BUILTINS = dict(builtins.__dict__)
_BASE_MODULES = set(sys.modules)
# Each loaded module's names, so that a call that rebinds one (math.pi = 3) leaves no trace (shallow: objects changed in place stay changed).
_BASE_MODULE_NAMES = {name: dict(module.__dict__) for name, module in sys.modules.items() if module is not None and name not in ('sys', 'builtins', '__main__')}
_MISSING = object()
_BASE_PATH = list(sys.path)
_BASE_META_PATH = list(sys.meta_path)
_BASE_ENVIRON = dict(os.environ)
_BASE_RECURSION = sys.getrecursionlimit()
_BASE_STREAMS = (sys.stdin, sys.stdout, sys.stderr)
_BASE_HOOKS = (sys.excepthook, sys.displayhook)


def _reset_scratch():
    os.chdir('/')
    if os.path.exists(_SCRATCH):
        shutil.rmtree(_SCRATCH)
    os.makedirs(_SCRATCH)
    os.chdir(_SCRATCH)


def _unbuffered(fd):
    # Written through at once: nothing a call printed waits in a buffer for the next call.
    return io.TextIOWrapper(io.FileIO(fd, 'w', closefd=False), encoding='utf-8', errors='backslashreplace', write_through=True)


def _restore():
    sys.stdin = _BASE_STREAMS[0]
    sys.stdout, sys.stderr = _unbuffered(1), _unbuffered(2)
    sys.excepthook, sys.displayhook = _BASE_HOOKS
    builtins.__dict__.clear()
    builtins.__dict__.update(_BASE_BUILTINS)
    for name in list(sys.modules):
        if name not in _BASE_MODULES:
            del sys.modules[name]
    for name, names in _BASE_MODULE_NAMES.items():
        module = sys.modules.get(name)
        if module is None:
            continue
        current = module.__dict__
        if len(current) != len(names) or any(current.get(key, _MISSING) is not value for key, value in names.items()):
            current.clear()
            current.update(names)
    sys.path[:] = _BASE_PATH
    sys.meta_path[:] = _BASE_META_PATH
    os.environ.clear()
    os.environ.update(_BASE_ENVIRON)
    sys.setrecursionlimit = _bounded_recursion_limit
    _set_recursion_limit(_BASE_RECURSION)
    linecache.clearcache()
    _reset_scratch()


def _saccade_run_call(code, files, images, pre_import):
    exit_code, error_type = 0, None
    sys.stdout, sys.stderr = _unbuffered(1), _unbuffered(2)
    try:
        _reset_scratch()
        with open('main.py', 'w', encoding='utf-8') as handle:
            handle.write(code)
        for path, data in files:
            folder = os.path.dirname(path)
            if folder:
                os.makedirs(folder, exist_ok=True)
            with open(path, 'wb') as handle:
                handle.write(data.to_bytes())
        shown = [Image(width, height, rgb.to_bytes(), path) for width, height, rgb, path in images]
        namespace = {'__name__': '__main__', '__file__': 'main.py', '__builtins__': builtins, 'Image': Image, 'images': shown, 'image': shown[-1] if shown else None}
        if pre_import:
            exec(_PRE_IMPORTS, namespace)
        try:
            compiled = compile(code, 'main.py', 'exec')
        except BaseException as error:
            error_type, exit_code = type(error).__name__, 1
            sys.stderr.write(''.join(traceback.format_exception_only(type(error), error)))
        else:
            try:
                exec(compiled, namespace)
            except SystemExit as error:
                if error.code is None:
                    exit_code = 0
                elif isinstance(error.code, int):
                    exit_code = error.code
                else:
                    exit_code = 1
                    print(error.code, file=sys.stderr)
            except BaseException as error:
                error_type, exit_code = type(error).__name__, 1
                # As python3 main.py prints it: the frames of the code, not of this runner.
                sys.stderr.write(''.join(traceback.format_exception(type(error), error, error.__traceback__.tb_next)))
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except BaseException:
                pass
    finally:
        _restore()
    return [exit_code, error_type]
`.replace('__PRE_IMPORTS__', JSON.stringify(PRE_IMPORTS));
