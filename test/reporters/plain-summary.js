/* global process, module */
/**
 * Prints one plain closing line, "Tests: N passed, N failed, N skipped", after jest's own summary, so a
 * CI reader that does not know jest's format can still count the run.
 */
class PlainSummary {
  onRunComplete(_contexts, results) {
    const { numPassedTests, numFailedTests, numPendingTests, numTodoTests } = results;
    const line = `Tests: ${numPassedTests} passed, ${numFailedTests} failed, ${numPendingTests + numTodoTests} skipped\n`;
    // jest's own summary is printed after every custom reporter has run; at exit this line comes last.
    process.once('exit', () => process.stderr.write(line));
  }
}
module.exports = PlainSummary;
