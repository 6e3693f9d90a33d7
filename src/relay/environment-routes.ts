import type { IncomingMessage, ServerResponse } from 'node:http';
import { ENVIRONMENTS_PATH, servedView, summaryOf, type EnvironmentView } from '../contracts/environments';
import { fixedJson, sendJson } from './compress';
import { sendError } from './errors';
import type { CallLog } from './log';
import { bearerToken, type SignIn } from './signed-in';

/**
 * GET /api/environments: the summaries (name, production, egress address) the taskpane needs at start,
 * and all an anonymous caller of a sign-in relay learns. GET /api/environments/<name>: one environment's
 * whole view (binding, each call's path and availability), fetched by a door when it connects to it.
 *
 * With sign-in, a caller with a token sees the environments the policy gives them, in both. Without a
 * token, the list is whole and a view is served only while typed keys are taken (a typed-key user needs
 * the binding before the service has seen the key); with personal keys off a view needs a sign-in.
 */
export type EnvironmentRoute = (
  req: IncomingMessage,
  res: ServerResponse,
  rawPath: string,
  query: string,
  log: CallLog,
) => void | Promise<void>;

export function environmentRoutes(
  views: readonly EnvironmentView[],
  signIn: SignIn | null,
  personalKeys: boolean,
): EnvironmentRoute {
  // Made once, and each coding compressed once: the relay's environments do not change while it runs.
  const list = fixedJson(JSON.stringify(views.map(summaryOf)));
  const served = new Map(views.map((v) => [v.name, fixedJson(JSON.stringify(servedView(v)))]));

  return (req, res, rawPath, query, log) => {
    if (req.method !== 'GET') return sendError(res, 'method-not-allowed', { headers: { allow: 'GET' } });
    if (query !== '') return sendError(res, 'query-not-allowed');
    const token = signIn ? bearerToken(req.headers.authorization) : null;
    if (rawPath === ENVIRONMENTS_PATH) {
      if (!token) return list(req, res);
      return signIn!.environments(req, res, log, (allowed) =>
        sendJson(req, res, JSON.stringify(views.filter((v) => allowed.has(v.name)).map(summaryOf))),
      );
    }
    // One segment, compared raw like the proxy's environment segment: an encoded name is no name.
    const name = rawPath.slice(ENVIRONMENTS_PATH.length + 1);
    const view = served.get(name);
    if (!view || name.includes('/')) return sendError(res, 'unknown-environment');
    if (token)
      return signIn!.environments(req, res, log, (allowed) =>
        allowed.has(name)
          ? view(req, res)
          : sendError(res, 'policy-refused', {
              message: `Your rules do not give you the environment "${name}".`,
              fields: { rule: 'environments', ask: signIn!.contact() },
            }),
      );
    if (signIn && !personalKeys) return sendError(res, 'sign-in-required');
    return view(req, res);
  };
}
