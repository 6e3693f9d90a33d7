import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import type { SandboxAbout } from '../contracts/sandbox';
import { normaliseIp, type ApiKey, type Environment } from './keys';
import { faultsSchema, type FaultPlan, type Faults, type FaultsInput } from './faults';
import type { Store } from './store';
import { archiveIncidentType, closeForm, deleteAnswerOption, type ConfigResult } from './configuration';
import { addCustomField, newFieldBody, removeCustomField } from './custom-fields';

/** What the sandbox's owner can do that the service does in its UI: approve addresses, revoke keys, set faults. */
export interface SandboxAdmin {
  /** What this is: a sandbox, and the environment it emulates (GET /_sandbox/about). */
  about(): SandboxAbout;
  requestedIps(): {
    identifier: string;
    keyName: string;
    ip: string;
    firstSeen: string;
    lastSeen: string;
    count: number;
  }[];
  /** Approves a requested IP address of a key and saves it (spec, soft IP allowlisting). False when not requested. */
  approveIp(identifier: string, ip: string): boolean;
  revokeKey(identifier: string): boolean;
  keys(): {
    identifier: string;
    name: string;
    environment: string;
    owner: string;
    expiresAt: string;
    allowedIps: string[];
    apis: string[];
    revoked: boolean;
    /** With pinFirstIp: the address the key is pinned to, once it has been used. */
    pinnedIp?: string;
  }[];
  faults(): Faults;
  setFaults(input: FaultsInput): Faults;
}

export function createAdmin(
  keys: Map<string, ApiKey>,
  plan: FaultPlan,
  environment: Environment,
): SandboxAdmin {
  return {
    about: () => ({ sandbox: true, environment }),
    requestedIps: () =>
      [...keys.values()].flatMap((k) =>
        [...k.requestedIps].map(([ip, seen]) => ({ identifier: k.identifier, keyName: k.name, ip, ...seen })),
      ),
    approveIp(identifier, ip) {
      const key = keys.get(identifier);
      const address = normaliseIp(ip);
      if (!key?.requestedIps.has(address)) return false;
      key.requestedIps.delete(address);
      key.allowedIps.add(address);
      // Approving is how the owner accepts a new address, so a pinned key moves to it.
      if (key.pinFirstIp) key.pinnedIp = address;
      return true;
    },
    revokeKey(identifier) {
      const key = keys.get(identifier);
      if (!key) return false;
      key.revoked = true;
      return true;
    },
    keys: () =>
      [...keys.values()].map((k) => ({
        identifier: k.identifier,
        name: k.name,
        environment: k.environment,
        owner: k.owner.name,
        expiresAt: k.expiresAt.toISOString(),
        allowedIps: [...k.allowedIps],
        apis: [...k.apis],
        revoked: k.revoked,
        ...(k.pinnedIp ? { pinnedIp: k.pinnedIp } : {}),
      })),
    faults: () => plan.current,
    setFaults: (input) => plan.set(input),
  };
}

const LOOPBACK = new Set(['127.0.0.1', '::1']);
const approveBody = z.object({ identifier: z.string().min(1), ip: z.string().min(1) });
const guidParam = z.object({ guid: z.string() });

/** A 400 naming each field of an admin body that is wrong, in the same shape as the API's rejections. */
const invalid = (reply: FastifyReply, message: string, error: z.ZodError) =>
  reply.code(400).send({
    message,
    errors: error.issues.map((i) => ({ field: i.path.join('.'), message: i.message })),
  });

/**
 * Admin routes under /_sandbox/ (outside the API root). Only callers on loopback may use them, so a sandbox
 * listening on a network address does not let others approve their own address.
 */
export function registerAdminRoutes(app: FastifyInstance, admin: SandboxAdmin, store: Store): void {
  app.register(
    async (r) => {
      r.addHook('onRequest', async (req, reply) => {
        if (!LOOPBACK.has(normaliseIp(req.socket.remoteAddress ?? '')))
          return reply.code(403).send({ message: 'Sandbox admin routes answer loopback callers only.' });
      });
      r.get('/about', async () => admin.about());
      r.get('/keys', async () => admin.keys());
      r.get('/requested-ips', async () => admin.requestedIps());
      r.post('/requested-ips/approve', async (req, reply) => {
        const body = approveBody.safeParse(req.body);
        if (!body.success) return invalid(reply, 'Give {"identifier", "ip"}.', body.error);
        return admin.approveIp(body.data.identifier, body.data.ip)
          ? { approved: true }
          : reply.code(404).send({
              message: `Key "${body.data.identifier}" has no requested IP address ${body.data.ip}.`,
            });
      });
      r.post('/keys/:identifier/revoke', async (req, reply) => {
        const { identifier } = req.params as { identifier: string };
        return admin.revokeKey(identifier)
          ? { revoked: true }
          : reply.code(404).send({ message: `No key "${identifier}".` });
      });
      r.get('/faults', async () => admin.faults());
      r.put('/faults', async (req, reply) => {
        const body = faultsSchema.safeParse({ ...admin.faults(), ...(req.body as object | undefined) });
        if (!body.success) return invalid(reply, 'Invalid faults.', body.error);
        return admin.setFaults(body.data);
      });
      r.get('/counts', async () => store.counts());
      const answer = (reply: FastifyReply, result: ConfigResult) =>
        'notFound' in result ? reply.code(404).send({ message: result.notFound }) : reply.send(result);
      r.post('/incidenttypes/:guid/archive', async (req, reply) =>
        answer(reply, archiveIncidentType(store, guidParam.parse(req.params).guid)),
      );
      r.post('/forms/:guid/close', async (req, reply) =>
        answer(reply, closeForm(store, guidParam.parse(req.params).guid)),
      );
      r.post('/customfields/:definitions', async (req, reply) => {
        const body = newFieldBody.safeParse(req.body);
        if (!body.success) return invalid(reply, 'Give {"Name", "Type"} and optionally Required, Visible, Options, IncidentTypeId.', body.error);
        const result = addCustomField(store, (req.params as { definitions: string }).definitions, body.data);
        return 'notFound' in result ? reply.code(404).send({ message: result.notFound }) : reply.code(result.done ? 201 : 200).send(result);
      });
      r.delete('/customfields/:guid', async (req, reply) => answer(reply, removeCustomField(store, guidParam.parse(req.params).guid)));
      r.delete('/customfields/:guid/options/:option', async (req, reply) => {
        const { guid, option } = z.object({ guid: z.string(), option: z.string() }).parse(req.params);
        return answer(reply, deleteAnswerOption(store, guid, option));
      });
      r.get('/incidents/:guid', async (req, reply) => {
        const { guid } = guidParam.parse(req.params);
        const incident = store.find('incidents', guid);
        if (!incident) return reply.code(404).send({ message: `No incident with GUID ${guid}.` });
        return { ...incident, ...store.incidentExtra(incident.Id as string) };
      });
    },
    { prefix: '/_sandbox' },
  );
}
