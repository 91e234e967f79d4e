"""The layers hold (docs/architecture.md, "Layers"): the project's import graph has no cycle. Every module of
simkit, strategies and reports is parsed (not imported), and each import of a project module, at the top or
inside a function, is an edge; a function-local one is allowed only where docs/architecture.md lists it (the
command line's start-up, tests/test_cli_startup.py), and even those may not close a cycle."""
import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = {"simkit": ROOT / "simkit", "simkit.strategies": ROOT / "strategies", "simkit.reports": ROOT / "reports"}


def _modules() -> dict[str, Path]:
    """Module name -> file, for every module of the project (strategies/ and reports/ as installed)."""
    modules = {}
    for package, folder in FOLDERS.items():
        for path in folder.rglob("*.py"):
            parts = path.relative_to(folder).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            name = ".".join((package, *parts))
            if not (package == "simkit" and parts[:1] in (("strategies",), ("reports",))):
                modules[name] = path
    return modules


def _imports(name: str, path: Path, modules) -> list[tuple[str, int, bool]]:
    """The project modules ``name`` imports: (module, line, whether inside a function). ``from package import
    x`` names the submodule ``package.x`` when there is one, else the package."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    tree = ast.parse(path.read_text(), str(path))
    local_lines = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            local_lines.update(n.lineno for n in ast.walk(node) if isinstance(n, (ast.Import, ast.ImportFrom)))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            targets = [f"{source}.{alias.name}" if f"{source}.{alias.name}" in modules else source
                       for alias in node.names]
        else:
            continue
        for target in targets:
            while target and target not in modules:
                target = target.rpartition(".")[0]
            # importing a.b.c runs a/__init__.py and a/b/__init__.py first: an edge to each package the
            # importer is not inside (reports importing simkit.analysis.experiment runs simkit/analysis/__init__)
            parts = target.split(".")
            parents = [".".join(parts[:k]) for k in range(1, len(parts))]
            implied = [p for p in parents if p in modules and not name.startswith(p + ".")]
            for module in implied + [target]:    # (an implied edge is not an import to list, only to follow)
                edge = (module, node.lineno, module == target and node.lineno in local_lines)
                if module and module != name and edge not in found:
                    found.append(edge)
    return found


def import_graph():
    """Module -> the project modules it imports, with where (line, function-local or not)."""
    modules = _modules()
    return {name: _imports(name, path, modules) for name, path in modules.items()}


def cycles(graph) -> list[list[str]]:
    """Every strongly connected group of more than one module (Tarjan), each sorted."""
    index, low, stack, on_stack, groups, counter = {}, {}, [], set(), [], [0]

    def visit(node):
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for target, _, _ in graph.get(node, ()):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return groups


def allowed_local_imports() -> set[tuple[str, str]]:
    """(module, imported module) pairs docs/architecture.md allows inside a function: its table's rows."""
    text = (ROOT / "docs/architecture.md").read_text()
    section = text.split("### Imports inside functions", 1)[1].split("\n## ", 1)[0]
    return {(module, target) for module, targets in re.findall(r"^\| `([\w.]+)` \| ([^|]+) \|", section, re.M)
            for target in re.findall(r"`([\w.]+)`", targets)}


def test_the_import_graph_has_no_cycle():
    found = cycles(import_graph())
    assert not found, "import cycles (each a group of modules importing each other):\n" + "\n".join(
        " <-> ".join(group) for group in found)


def test_every_function_local_project_import_is_listed_with_its_reason():
    allowed = allowed_local_imports()
    local = sorted(f"{name}:{line} imports {target}" for name, edges in import_graph().items()
                   for target, line, inside in edges if inside and (name, target) not in allowed)
    assert not local, ("function-local project imports not listed in docs/architecture.md (move them to the top, "
                       "or list them there with the start-up test that needs them):\n" + "\n".join(local))


def test_the_graph_sees_a_cycle_and_a_local_import(tmp_path):
    graph = {"a": [("b", 1, False)], "b": [("c", 3, True)], "c": [("a", 2, False)], "d": [("a", 1, False)]}
    assert cycles(graph) == [["a", "b", "c"]]
    modules = {"simkit.x": None, "simkit.y": None, "simkit": None}
    path = tmp_path / "x.py"
    path.write_text("from . import y\nimport os\ndef f():\n    from .y import z\n")
    assert _imports("simkit.x", path, modules) == [("simkit.y", 1, False), ("simkit.y", 4, True)]
    # a module of another package runs that package's __init__ too
    modules = {"simkit.p": None, "simkit.p.q": None, "simkit.r": None, "simkit": None}
    path = tmp_path / "r.py"
    path.write_text("from simkit.p.q import thing\n")
    assert _imports("simkit.r", path, modules) == [("simkit.p", 1, False), ("simkit.p.q", 1, False)]
