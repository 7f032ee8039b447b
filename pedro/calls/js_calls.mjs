// Run by node, inside the sandbox: import the changed module and make the build's calls. Imports nothing of
// pedro's; every call's outcome is recorded as data, and the results go to a file, since the module may print.
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { inspect, isDeepStrictEqual } from "node:util";
import vm from "node:vm";

const MAX_REPR = 300;
const spec = JSON.parse(readFileSync(process.argv[2], "utf8"));
let result;
try {
  const loaded = await import(pathToFileURL(spec.module).href);
  const scope = { ...(loaded.default && typeof loaded.default === "object" ? loaded.default : {}), ...loaded };
  delete scope.default;
  const names = Object.keys(scope).filter((name) => /^[A-Za-z_$][\w$]*$/.test(name));
  // A call's own code runs under a time limit (vm stops it); a promise it returns is awaited without one.
  globalThis.__pedroScope = Object.fromEntries(names.map((name) => [name, scope[name]]));
  // Each call's limit: the whole one until a call ran too long or the spec's first `pinned` calls all ended, then
  // spec.after_slow's (run.py's AFTER_SLOW).
  let limitMs = spec.seconds * 1000;
  let slowestMs = 0;
  const tighten = () => {
    const next = Math.max(spec.after_slow.floor_s * 1000, spec.after_slow.factor * slowestMs);
    limitMs = Math.min(limitMs, next);
  };
  const evaluate = (text, timeout = limitMs) =>
    vm.runInThisContext(`(function () { with (globalThis.__pedroScope) { return (${text}); } })()`, {
      timeout: Math.max(1, Math.round(timeout)),
    });
  const results = [];
  const started = performance.now();
  for (const item of spec.calls) {
    let value;
    const began = performance.now();
    if (spec.after_slow && began - started > spec.after_slow.total_s * 1000) {
      results.push({ raised: "too slow", said: `the calls ran longer than ${spec.after_slow.total_s} s in all` });
      continue;
    }
    if (spec.after_slow && spec.pinned && results.length === spec.pinned && !results.some((r) => r.raised === "too slow")) {
      tighten();
    }
    try {
      value = await evaluate(item.call);
      slowestMs = Math.max(slowestMs, performance.now() - began);
    } catch (error) {
      const slow = error?.code === "ERR_SCRIPT_EXECUTION_TIMEOUT";
      results.push({
        raised: slow ? "too slow" : error?.name ?? "Error",
        said: slow ? `ran longer than ${limitMs / 1000} s` : String(error?.message ?? error).slice(0, MAX_REPR),
      });
      if (slow && spec.after_slow) {
        tighten();
      }
      continue;
    }
    const entry = { value: inspect(value, { depth: 4 }).slice(0, MAX_REPR) };
    if (item.expected) {
      try {
        entry.equal = isDeepStrictEqual(value, evaluate(item.expected, spec.seconds * 1000));
      } catch (error) {
        entry.equal = null;
        entry.said = `the expected value ${item.expected} cannot be read: ${error?.name ?? "Error"}`;
      }
    }
    results.push(entry);
  }
  result = { results };
} catch (error) {
  result = { import: `${error?.name ?? "Error"}: ${String(error?.message ?? error).slice(0, MAX_REPR)}` };
}
writeFileSync(spec.out, JSON.stringify(result));
