// A warm node for repair's candidates: one node process for the whole repair, which runs each request's test files
// in worker threads of its own, so that a candidate costs a worker (tens of milliseconds) rather than `node --test`'s
// two processes and a sandbox each. Every worker loads the project's modules afresh from disk.
//
// Copied into a folder of its own and run with the project's node, inside the sandbox the tests run in. Its one
// argument is a JSON object: `args`, what the test command gives `node` (`--test`, its options and paths); `hook`, a
// file this script may write. It first asks node's own runner which files the command runs (each test process it
// starts names itself through the hook; no test runs), then answers JSON lines on stdout to requests on stdin:
// {pattern, workdir, timeout, cpu_limit_s} → {outcome, exit_code, seconds, cpu_s}, with the junit report in
// workdir/report.xml and the spec reporter's output in workdir/output.log. With `per_test_s` and `names`, each named
// test runs alone under that limit, and one still running then is a failing test (TestHung): a command that hung
// names the test that hangs.
"use strict";

const fs = require("node:fs");
const path = require("node:path");
const readline = require("node:readline");
const { spawnSync } = require("node:child_process");
const { Worker } = require("node:worker_threads");

const NO_TEST = "^pedro-no-test-is-named-this$";
const POLL_MS = 20;

function answer(object) {
  process.stdout.write(JSON.stringify(object) + "\n");
}

function options(args) {
  // The node options of the command, for every worker: what is neither `--test` nor a path to run.
  return args.filter((arg) => arg.startsWith("-") && arg !== "--test");
}

function discover(args, hook) {
  // The files node's own runner would run: its test processes each name themselves through the hook.
  const list = `${hook}.list`;
  fs.writeFileSync(
    hook,
    "if (process.env.NODE_TEST_CONTEXT && process.argv[1]) " +
      `require("node:fs").appendFileSync(${JSON.stringify(list)}, process.argv[1] + "\\n");\n`,
  );
  fs.writeFileSync(list, "");
  const run = spawnSync(
    process.execPath,
    ["--require", hook, ...args, `--test-name-pattern=${NO_TEST}`, "--test-reporter=tap"],
    { stdio: ["ignore", "pipe", "pipe"], timeout: 60000, maxBuffer: 64 * 1024 * 1024 },
  );
  if (run.error) throw run.error;
  const files = fs.readFileSync(list, "utf8").split("\n").filter(Boolean);
  // The top-level tests, each skipped by the pattern no test matches: TAP names them at no indent.
  const names = String(run.stdout)
    .split("\n")
    .filter((line) => line.startsWith("# Subtest: "))
    .map((line) => line.slice("# Subtest: ".length));
  return { files: [...new Set(files.map((file) => path.resolve(file)))].sort(), names: [...new Set(names)] };
}

function runFile(file, request, index, log, stop) {
  // One test file in a worker of its own; resolves to its exit code, and to null when stopped.
  const report = path.join(request.workdir, `report-${index}.xml`);
  const execArgv = [
    ...request.options,
    "--test-reporter=junit",
    `--test-reporter-destination=${report}`,
    "--test-reporter=spec",
    "--test-reporter-destination=stdout",
  ];
  if (request.pattern) execArgv.push(`--test-name-pattern=${request.pattern}`);
  return new Promise((resolve) => {
    let worker;
    try {
      worker = new Worker(file, { execArgv, stdout: true, stderr: true });
    } catch (error) {
      log.write(`${error.stack || error}\n`);
      resolve({ code: 1, error, report });
      return;
    }
    let failure = null;
    worker.stdout.on("data", (chunk) => log.write(chunk));
    worker.stderr.on("data", (chunk) => log.write(chunk));
    worker.on("error", (error) => {
      failure = error;
      log.write(`${(error && error.stack) || error}\n`);
    });
    worker.on("exit", (code) => resolve({ code: stop.stopped ? null : code, error: failure, report }));
    stop.worker = worker;
  });
}

function escape(text) {
  return String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/"/g, "&quot;");
}

function cases(result, file) {
  // The test cases a worker's junit report holds; a file that failed before its tests ran is one failing case named
  // after the file, as node's runner names it.
  let text = "";
  try {
    text = fs.readFileSync(result.report, "utf8");
  } catch {
    text = "";
  }
  const inner = text.replace(/^[\s\S]*?<testsuites>/, "").replace(/<\/testsuites>\s*$/, "");
  if (/<testcase\b/.test(inner) || result.code === 0) return inner;
  const error = result.error;
  const message = error ? String(error.message || error).split("\n")[0] : "test failed";
  const details = error ? String(error.stack || error) : "test failed";
  return (
    `\t<testcase name="${escape(file)}" time="0" classname="test">\n` +
    `\t\t<failure type="testCodeFailure" message="${escape(message)}">\n${escape(details)}\n\t\t</failure>\n` +
    "\t</testcase>\n"
  );
}

function exactly(name) {
  // A pattern that matches the test name `name` alone.
  return `^${name.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}$`;
}

function hungCase(name, seconds) {
  const message = `TestHung: the test still ran after ${seconds} s, so it was stopped (it may never end)`;
  return (
    `\t<testcase name="${escape(name)}" time="${seconds}" classname="test">\n` +
    `\t\t<failure type="testTimeoutFailure" message="${escape(message)}">\n${escape(message)}\n\t\t</failure>\n` +
    "\t</testcase>\n"
  );
}

async function runFiles(files, request, pattern, log, stop, counter) {
  // Every file in turn, each in a worker, until one is stopped: its cases, and the highest exit code.
  let exitCode = 0;
  const parts = [];
  for (const file of files) {
    if (stop.stopped) break;
    const result = await runFile(file, { ...request, pattern }, counter.next++, log, stop);
    if (result.code === null) break;
    exitCode = Math.max(exitCode, result.code);
    parts.push(cases(result, file));
  }
  return { exitCode, parts };
}

async function oneByOne(files, request, log, stop, counter) {
  // Each named test alone, stopped at its own limit: one still running then is a failing case of its own.
  let exitCode = 0;
  const parts = [];
  for (const name of request.names) {
    if (stop.stopped) break;
    const own = { stopped: false, worker: null };
    const timer = setTimeout(() => {
      own.stopped = true;
      if (own.worker) own.worker.terminate();
    }, request.per_test_s * 1000);
    stop.inner = own; // the request's own limit ends the worker this test runs in
    const ran = await runFiles(files, request, exactly(name), log, own, counter);
    clearTimeout(timer);
    stop.inner = null;
    if (stop.stopped) break;
    if (own.stopped) {
      exitCode = Math.max(exitCode, 1);
      parts.push(hungCase(name, request.per_test_s));
    } else {
      exitCode = Math.max(exitCode, ran.exitCode);
      parts.push(...ran.parts);
    }
  }
  return { exitCode, parts };
}

async function serve(request, files) {
  const began = process.hrtime.bigint();
  const cpuBefore = process.cpuUsage();
  const log = fs.createWriteStream(path.join(request.workdir, "output.log"));
  const stop = { stopped: false, worker: null, inner: null };
  const cpuSeconds = () => {
    const used = process.cpuUsage(cpuBefore);
    return (used.user + used.system) / 1e6;
  };
  const end = () => {
    for (const running of [stop, stop.inner]) {
      if (!running) continue;
      running.stopped = true;
      if (running.worker) running.worker.terminate();
    }
  };
  const timer = setTimeout(end, request.timeout * 1000);
  const watch = setInterval(() => {
    if (request.cpu_limit_s != null && cpuSeconds() > request.cpu_limit_s) end();
  }, POLL_MS);
  const counter = { next: 0 };
  const { exitCode, parts } = request.per_test_s
    ? await oneByOne(files, request, log, stop, counter)
    : await runFiles(files, request, request.pattern, log, stop, counter);
  clearTimeout(timer);
  clearInterval(watch);
  await new Promise((resolve) => log.end(resolve));
  const xml = `<?xml version="1.0" encoding="utf-8"?>\n<testsuites>\n${parts.join("")}</testsuites>\n`;
  fs.writeFileSync(path.join(request.workdir, "report.xml"), stop.stopped ? "" : xml);
  return {
    outcome: stop.stopped ? "timeout" : "exited",
    exit_code: stop.stopped ? null : exitCode,
    seconds: Number(process.hrtime.bigint() - began) / 1e9,
    cpu_s: cpuSeconds(),
  };
}

async function main() {
  const config = JSON.parse(process.argv[2]);
  let files;
  let names;
  try {
    ({ files, names } = discover(config.args, config.hook));
  } catch (error) {
    answer({ ready: false, error: String(error.message || error) });
    return;
  }
  if (!files.length) {
    answer({ ready: false, error: "node's runner named no test file" });
    return;
  }
  answer({ ready: true, preloaded: files.length, files, names });
  const lines = readline.createInterface({ input: process.stdin });
  for await (const line of lines) {
    if (!line.trim()) continue;
    let request;
    try {
      request = JSON.parse(line);
    } catch {
      answer({ outcome: "bad request" });
      continue;
    }
    answer(await serve({ ...request, options: options(config.args) }, files));
  }
}

main();
