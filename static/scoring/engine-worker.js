// engine-loader.js's worker: Pyodide (static/pyodide/) and scoring/engine/'s Python files
// (/engine.zip) run here, off the page's thread, so that the pad never waits for them. Asked
// {id, matchFile, deals} (JSON texts), it answers {id, result} (JSON text) or {id, error}.
// Served as /engine-worker.js by web/pwa.py, which writes the line above this one (TSOXA_STATIC:
// the static files' address) and gives it a policy that lets WebAssembly compile.
/* global TSOXA_STATIC */
const STATIC = new URL(TSOXA_STATIC, self.location.href).href;
const ENGINE_ZIP = "/engine.zip";  // web/pwa.py's engine_zip

// The match file plus the waiting deals, replayed by the engine: FORMAT.md's sheet, or its refusal.
const PYTHON = `
import json
import sys

sys.path.insert(0, "/tsoxa")
from scoring.engine import ScoringError, loads


def tablet_sheet(match_file, waiting):
    data = json.loads(match_file)
    known = len(data.get("deals", []))
    data["deals"] = list(data.get("deals", [])) + json.loads(waiting)
    try:
        sheet = loads(json.dumps(data)).sheet()
    except ScoringError as error:
        return json.dumps({"known": known, "error": str(error), "deal": error.deal})
    return json.dumps({"known": known, "sheet": sheet.to_dict()})
`;

let ready = null;
function engine() {
  ready = ready || (async () => {
    const {loadPyodide} = await import(STATIC + "pyodide/pyodide.mjs");
    const pyodide = await loadPyodide({indexURL: STATIC + "pyodide/"});
    const zip = await fetch(ENGINE_ZIP, {credentials: "same-origin"});
    if (!zip.ok) throw new Error(`engine: ${zip.status}`);
    pyodide.unpackArchive(await zip.arrayBuffer(), "zip", {extractDir: "/tsoxa"});
    pyodide.runPython(PYTHON);
    return pyodide.globals.get("tablet_sheet");
  })().catch((error) => { ready = null; throw error; });  // tried again at the next question
  return ready;
}

self.onmessage = async (event) => {
  const {id, matchFile, deals} = event.data;
  try {
    const sheet = await engine();
    self.postMessage({id: id, result: sheet(matchFile, deals)});
  } catch (error) {
    self.postMessage({id: id, error: String(error && error.message || error)});
  }
};
