"""pytest plugin agentgov loads with ``-p agentgov_pytest``.

Writes every test phase report to $AGENTGOV_PYTEST_RESULTS (one JSON object per line) and, when
$AGENTGOV_COVERAGE_OUT is set, measures coverage.py coverage with one dynamic context per test
(the node id), switched around each test's setup/call/teardown. Lines run outside any test
(imports, module bodies, decorators, collection) land in the empty context.
"""
import json
import os

import pytest

_results = None
_cov = None
_root = os.environ.get("AGENTGOV_COVERAGE_ROOT") or os.getcwd()


def _start_coverage():
    global _cov
    out = os.environ.get("AGENTGOV_COVERAGE_OUT")
    if not out:
        return
    import coverage

    _cov = coverage.Coverage(
        data_file=None,
        source=[_root],
        omit=["*/site-packages/*", "*/.venv/*", "*/venv/*", "*/node_modules/*"],
        config_file=False,
    )
    _cov.start()


_start_coverage()


def pytest_configure(config):
    global _results
    path = os.environ.get("AGENTGOV_PYTEST_RESULTS")
    if path:
        _results = open(path, "w", encoding="utf-8")


def _write(record):
    if _results is not None:
        _results.write(json.dumps(record) + "\n")
        _results.flush()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    if _cov is not None:
        _cov.switch_context(item.nodeid)
    yield
    if _cov is not None:
        _cov.switch_context("")


def pytest_runtest_logreport(report):
    longrepr = None
    if report.failed:
        longrepr = str(report.longrepr)
    elif report.skipped and isinstance(report.longrepr, tuple):
        longrepr = str(report.longrepr[2])
    _write({
        "kind": "test",
        "nodeid": report.nodeid,
        "when": report.when,
        "outcome": report.outcome,
        "duration": report.duration,
        "longrepr": longrepr,
        "message": _message(report) if report.failed else None,
    })


def _message(report):
    crash = getattr(report.longrepr, "reprcrash", None)
    if crash is not None:
        return crash.message
    return str(report.longrepr).strip().splitlines()[-1] if report.longrepr else "failed"


def pytest_collectreport(report):
    if report.failed:
        _write({"kind": "collect", "nodeid": report.nodeid, "outcome": "failed", "longrepr": str(report.longrepr)})


def pytest_sessionfinish(session, exitstatus):
    if _cov is not None:
        _cov.stop()
        data = _cov.get_data()
        files = {}
        for path in data.measured_files():
            rel = os.path.relpath(path, _root)
            if rel.startswith(".."):
                continue
            by_context = {}
            for line, contexts in data.contexts_by_lineno(path).items():
                for context in contexts:
                    by_context.setdefault(context, []).append(line)
            files[rel.replace(os.sep, "/")] = by_context
        with open(os.path.join(os.environ["AGENTGOV_COVERAGE_OUT"], "coverage-py.json"), "w", encoding="utf-8") as handle:
            json.dump(files, handle)
    if _results is not None:
        _results.close()
