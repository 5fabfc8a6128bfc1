// The offline table's worker: Pyodide (Python in the browser, from npm) running this
// package's rules core and its offline table (scoundrel/web/offline_table.py), the same
// files the server runs. The page asks it what the server would answer: a new game, a
// move, an undo. Nothing here decides a rule.
let table = null;

function load(boot) {
  table ??= (async () => {
    const { loadPyodide } = await import(`${boot.pyodide}pyodide.mjs`);
    const python = await loadPyodide({ indexURL: boot.pyodide });
    const code = await fetch(boot.code);
    if (!code.ok) throw new Error(`the game's code: ${code.status}`);
    python.unpackArchive(await code.arrayBuffer(), "zip", { extractDir: "/home/pyodide/game" });
    python.runPython("import sys; sys.path.insert(0, '/home/pyodide/game')");
    return python.pyimport("scoundrel.web.offline_table").answer;
  })();
  table.catch(() => {
    table = null; // a failed start is tried again by the next request
  });
  return table;
}

self.onmessage = async (event) => {
  const { id, boot, request } = event.data;
  try {
    const answer = await load(boot);
    if (request.op === "ready") self.postMessage({ id, answer: "{}" });
    else self.postMessage({ id, answer: answer(JSON.stringify(request)) });
  } catch (error) {
    self.postMessage({ id, failed: String(error?.message ?? error) });
  }
};
