/**
 * Prints one plain closing line, "Tests: N passed, N failed, N skipped", after jest's own summary, so a
 * CI reader that does not know jest's format can still count the run.
 */
class PlainSummary {
  onRunComplete(_contexts, results) {
    const { numPassedTests, numFailedTests, numPendingTests, numTodoTests } = results;
    process.stderr.write(`Tests: ${numPassedTests} passed, ${numFailedTests} failed, ${numPendingTests + numTodoTests} skipped\n`);
  }
}
module.exports = PlainSummary;
