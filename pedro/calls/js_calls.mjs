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
  const evaluate = (text) =>
    vm.runInThisContext(`(function () { with (globalThis.__pedroScope) { return (${text}); } })()`, {
      timeout: spec.seconds * 1000,
    });
  const results = [];
  for (const item of spec.calls) {
    let value;
    try {
      value = await evaluate(item.call);
    } catch (error) {
      const slow = error?.code === "ERR_SCRIPT_EXECUTION_TIMEOUT";
      results.push({
        raised: slow ? "too slow" : error?.name ?? "Error",
        said: slow ? `ran longer than ${spec.seconds} s` : String(error?.message ?? error).slice(0, MAX_REPR),
      });
      continue;
    }
    const entry = { value: inspect(value, { depth: 4 }).slice(0, MAX_REPR) };
    if (item.expected) {
      try {
        entry.equal = isDeepStrictEqual(value, evaluate(item.expected));
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
