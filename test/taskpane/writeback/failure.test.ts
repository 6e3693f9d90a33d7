import { ApiError } from '../../../src/client/api-error';
import { relaySays } from '../../../src/client/relay-reference';
import { failure } from '../../../src/taskpane/writeback/failure';

/** What the write-back screen says when a step fails: a policy refusal is a refusal to post the flow. */
describe('write-back failures', () => {
  it("a relay policy refusal (of a list the flow reads) is said as not being allowed to post the flow", () => {
    const refused = new ApiError({
      code: 'relay',
      status: 403,
      sent: 'no',
      ...relaySays('Rule "reporting" does not give you the dataset users on sandbox-acc.', { code: 'policy-refused', status: 403 }),
    });
    const said = failure(refused, 'sandbox-acc', 'The template was not made', 'Incidents');
    expect(said.title).toBe('Not allowed for you');
    expect(said.detail).toMatch(/^The relay's policy does not let you post Incidents to sandbox-acc\. Ask the relay's administrators/);
    // The relay's own sentence stays, after, for whoever sets the policy; its code and status as the reference.
    expect(said.detail).toContain('(It refused a call the flow needs: The relay says: Rule "reporting" does not give you the dataset users on sandbox-acc.)');
    expect(said.reference).toBe('relay code policy-refused, status 403');
  });

  it('any other failure keeps its own words, titled by what did not happen', () => {
    const timeout = new ApiError({ code: 'unreachable', sent: 'no', message: 'connect ECONNREFUSED' });
    expect(failure(timeout, 'sandbox-acc', 'Validation stopped', 'Incidents').title).not.toBe('Not allowed for you');
    expect(failure(new Error('the sheet is protected'), 'sandbox-acc', 'Validation stopped', 'Incidents')).toEqual({ title: 'Validation stopped', detail: 'the sheet is protected' });
  });
});
