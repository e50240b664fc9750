/**
 * Preloaded into the test runner and each test file's process (`--import`). With
 * --test-force-exit and more than one file at a time, a test file's process exits as soon as its
 * last test ends, and the verdicts it is still writing to its stdout pipe are lost: the run reports
 * fewer tests than ran, and a failing test's name and error can vanish with them
 * (nodejs/node#64833). Blocking writes on stdout and stderr leave nothing in a buffer at exit.
 */
type WithHandle = { _handle?: { setBlocking?: (blocking: boolean) => unknown } };

for (const stream of [process.stdout, process.stderr]) {
  (stream as unknown as WithHandle)._handle?.setBlocking?.(true);
}
