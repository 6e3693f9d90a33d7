import { isGuid } from '../../catalog';
import type { WritebackApi } from '../api';
import type { Directory } from '../checks/names';
import type { FlowContext } from './context';

/**
 * Where a customer's file wants a GUID for a field the flows fill with a name (the catalogue's incident
 * body names the reporting organization; acme's file wants `reportingOrganization.guid`), the name is
 * resolved to its GUID from the standing data and the GUID is sent. The request keeps the names, which is
 * what the service's records show when a row is looked for; the GUIDs are worked out again, the same way,
 * when the body is sent.
 */

/** Body fields the catalogue fills with names from the directory lists, and the list each name is from. */
const NAME_LISTS: Record<string, keyof Directory> = {
  ReportingOrganization: 'organizations',
  AffectedOrganizations: 'organizations',
  Assessors: 'users',
  Responsible: 'users',
  Informed: 'users',
  ResponsibleUser: 'users',
  Reviewer: 'users',
  BusinessDimensions: 'businessDimensions',
  FrameworkDimensions: 'frameworkDimensions',
};

const WHAT: Record<keyof Directory, string> = {
  organizations: 'organizations',
  users: 'users',
  businessDimensions: 'business dimensions',
  frameworkDimensions: 'framework dimensions',
};

export interface GuidProblem {
  field: string;
  code: string;
  message: string;
}

/**
 * Per body field the file wants as a GUID, the GUID of each name the body gives; a name that cannot be
 * resolved (unknown, several entries, or the list lacking on this environment) is a problem on its field.
 */
export function boundGuids(
  ctx: FlowContext,
  operationId: string,
  body: unknown,
): { guids: Record<string, Record<string, string>>; problems: GuidProblem[] } {
  const guids: Record<string, Record<string, string>> = {};
  const problems: GuidProblem[] = [];
  if (typeof body !== 'object' || body === null) return { guids, problems };
  const b = body as Record<string, unknown>;
  for (const [field, list] of Object.entries(NAME_LISTS)) {
    const value = b[field];
    if (value === undefined || value === null || !ctx.environment.wantsGuid(operationId, field)) continue;
    const index = ctx.lists[list];
    const names: Record<string, string> = {};
    for (const name of Array.isArray(value) ? value : [value]) {
      if (typeof name !== 'string') continue;
      if (isGuid(name.trim())) names[name] = name.trim();
      else if (!index)
        problems.push({
          field,
          code: 'guid-needed',
          message: `this environment's API file wants the GUID of ${WHAT[list]} here and lacks the list of ${WHAT[list]}, so "${name}" cannot be looked up; type its GUID`,
        });
      else {
        const r = index.resolve(name);
        if (r.ok) names[name] = r.id;
        else problems.push({ field, code: r.code, message: r.message });
      }
    }
    guids[field] = names;
  }
  return { guids, problems };
}

/** The body as sent: each name the file wants as a GUID replaced by its GUID. */
function withGuids(ctx: FlowContext, operationId: string, body: unknown): unknown {
  const { guids } = boundGuids(ctx, operationId, body);
  if (!Object.keys(guids).length) return body;
  const out = { ...(body as Record<string, unknown>) };
  for (const [field, names] of Object.entries(guids)) {
    const one = (x: unknown) => (typeof x === 'string' ? (names[x] ?? x) : x);
    const v = out[field];
    out[field] = Array.isArray(v) ? v.map(one) : one(v);
  }
  return out;
}

/**
 * What a flow sends a row's calls through on this environment: its bodies with the GUIDs the file wants,
 * and the row's values of the file's extra properties. Made per row by the runner; flows never see the
 * environment's shapes.
 */
export function rowSender(api: WritebackApi, ctx: FlowContext, extra: Readonly<Record<string, unknown>>): WritebackApi {
  // Each call gets the values of its own operation's extra properties only.
  const extraOf = (id: string) =>
    Object.fromEntries(
      (ctx.environment.endpoints?.[id]?.body?.extra ?? []).flatMap((x) => (x.name in extra ? [[x.name, extra[x.name]]] : [])),
    );
  return {
    download: api.download,
    call(id, o) {
      const own = extraOf(id);
      return api.call(id, {
        ...o,
        ...(o?.body === undefined ? {} : { body: withGuids(ctx, id, o.body) }),
        ...(Object.keys(own).length ? { extra: { ...own, ...o?.extra } } : {}),
      });
    },
  };
}
