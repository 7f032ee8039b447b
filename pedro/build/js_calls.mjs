// Run by node, inside the sandbox: import the changed module and make the build's calls. Imports nothing of
// pedro's; every call's outcome is recorded as data, and the results go to a file, since the module may print.
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { inspect, isDeepStrictEqual } from "node:util";

const MAX_REPR = 300;
const spec = JSON.parse(readFileSync(process.argv[2], "utf8"));
let result;
try {
  const loaded = await import(pathToFileURL(spec.module).href);
  const scope = { ...(loaded.default && typeof loaded.default === "object" ? loaded.default : {}), ...loaded };
  delete scope.default;
  const names = Object.keys(scope).filter((name) => /^[A-Za-z_$][\w$]*$/.test(name));
  const evaluate = (text) => new Function(...names, `return (${text});`)(...names.map((name) => scope[name]));
  const results = [];
  for (const item of spec.calls) {
    let value;
    try {
      value = await evaluate(item.call);
    } catch (error) {
      results.push({ raised: error?.name ?? "Error", said: String(error?.message ?? error).slice(0, MAX_REPR) });
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
