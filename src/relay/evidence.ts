import { createHash, hash, randomUUID } from 'node:crypto';
import { availableParallelism } from 'node:os';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { Endpoint } from '../catalog';
import {
  STATEMENT_ID_HEADER,
  STATEMENTS_PATH,
  WRITE_REF,
  WRITE_REF_HEADER,
  WRITE_REF_SEGMENT,
  type StatementPayload,
  type StatementWho,
} from '../contracts/evidence';
import type { Person, TokenChecker } from '../identity/token-check';
import type { RelayConfig } from './config';
import { sendError } from './errors';
import { AnswerHasher } from './answer-hasher';
import { AnswerTap, whoOf } from './evidence-tap';
import { HeldKeyError } from './held-keys';
import { RecordCounter } from './record-count';
import type { CallLog } from './log';
import type { PolicyFile } from './policy-file';
import { bearerToken } from './signed-in';
import { SigningKeys } from './signing-keys';
import { createStatementStore, type StatementStore } from './statement-store';

/**
 * The relay as witness (docs/relay.md, "What the relay signs"): every dataset download and every forwarded
 * write gets a signed statement, fetched by its caller from STATEMENTS_PATH, verified against JWKS_PATH.
 * This file ties the parts together: who the caller is (and so who may fetch the statement), the tap on the
 * answer, the two routes.
 */

/**
 * The client's reference of a write (WRITE_REF_HEADER), signed in its receipt when it is one (a UUID). Read
 * from the caller's request: the header is not on the allowlist of what the service sees (headers.ts).
 */
/** Where a receipt is also kept by its write reference: per caller, so one caller's reference never reaches another's entry. */
const byRef = (owner: string, ref: string) => `ref:${owner}:${ref}`;

function writeRefOf(req: IncomingMessage): { writeRef?: string } {
  const value = req.headers[WRITE_REF_HEADER];
  const ref = typeof value === 'string' ? value.trim().toLowerCase() : '';
  return WRITE_REF.test(ref) ? { writeRef: ref } : {};
}

/** Who made a call, as the statement names them and as the statement route recognises them. */
export interface Caller {
  /** Who may fetch the statement: `key:<SHA-256 of the Authorization header>` or `person:<subject>`. */
  owner: string;
  who: StatementWho;
  rule: string;
}

/**
 * Statements kept in memory at once (about 1 KB each): past this the oldest go before their TTL. A client
 * fetches its statement as soon as its answer has ended, so even a flood of calls leaves it time.
 */
const KEPT = 20_000;

/** A new statement id, on the answer about to be sent. */
function statementIdOn(res: ServerResponse): string {
  const id = randomUUID();
  res.setHeader(STATEMENT_ID_HEADER, id);
  // A taskpane on an allowed origin must be able to read the id (cors.ts set the list for this answer).
  const exposed = res.getHeader('access-control-expose-headers');
  if (typeof exposed === 'string') res.setHeader('access-control-expose-headers', `${exposed}, ${STATEMENT_ID_HEADER}`);
  return id;
}

const sha256 = (text: string) => hash('sha256', text, 'hex');

export interface Evidence {
  readonly keys: SigningKeys;
  /** Resolves once the shared store (Redis), if any, has answered or failed. */
  readonly ready: Promise<void>;
  /** The caller of a typed-key call (personal-key mode). */
  keyCaller(authorization: string, keyTag: string): Caller;
  /** The caller of a signed-in call, once the sign-in checks have passed (the token check is cached by then). */
  personCaller(checker: TokenChecker, token: string, env: string, endpoint: Endpoint, log: CallLog): Caller;
  /**
   * The tap for a dataset download or a write about to be forwarded, its statement id already on the answer;
   * null for other calls. Asks the service for an uncompressed answer (what is hashed is what is sent on).
   */
  tap(
    res: ServerResponse,
    caller: Caller,
    env: string,
    endpoint: Endpoint,
    path: string,
    headers: Record<string, string>,
    body: Buffer | undefined,
  ): AnswerTap | null;
  /**
   * The statement of an implied read (projected-read.ts), whose caller was sent `sent`, the service's
   * answer `service` with each record cut to `fields`; its id goes on the answer about to be sent.
   */
  projected(res: ServerResponse, caller: Caller, env: string, endpoint: Endpoint, path: string, service: Uint8Array, sent: Buffer, fields: readonly string[]): void;
  /** GET /.well-known/jwks.json */
  jwks(req: IncomingMessage, res: ServerResponse): void;
  /** GET `${STATEMENTS_PATH}/<id>`: the caller's own statement. */
  statement(req: IncomingMessage, res: ServerResponse, rawPath: string, checker: TokenChecker | null): void | Promise<void>;
  reload(reason: string): void;
  start(): void;
  stop(): void;
}

export function createEvidence(
  config: RelayConfig,
  logger: Logger,
  /** The policy file, once the relay has loaded it (null without sign-in). */
  policy: () => PolicyFile | null,
  processEnv: NodeJS.ProcessEnv,
  now?: () => number,
): Evidence {
  let keys: SigningKeys;
  try {
    keys = new SigningKeys(config.evidence, logger, processEnv, now);
  } catch (e) {
    if (e instanceof HeldKeyError) throw new HeldKeyError(`the relay cannot use its evidence signing key:\n  ${e.message}`);
    throw e;
  }
  const store: StatementStore = createStatementStore(
    config.evidence.statementTtlSeconds * 1000,
    KEPT,
    logger,
    config.limits.rateLimit.store,
    now,
  );
  const hosts = new Map(Object.entries(config.environments).map(([name, e]) => [name, new URL(e.baseUrl).host]));
  /** The claims with the statement id (`jti`) and when it is signed (`iat`, seconds), as JSON, signed. */
  const signed = ({ jti, payload }: { jti: string; payload: StatementPayload }) =>
    keys.sign(`${JSON.stringify(payload).slice(0, -1)},"jti":${JSON.stringify(jti)},"iat":${Math.floor((now ?? Date.now)() / 1000)}}`);
  // Signing costs more than forwarding a small answer, and most statements are never fetched: this relay
  // signs one when its caller first fetches it. Statements shared through Redis are signed at once, so
  // Redis holds only signed ones and any relay with the key can hand them out.
  const sink = {
    issue(id: string, owner: string, payload: StatementPayload) {
      const claims = { jti: id, payload };
      const entry = store.shared ? { owner, jws: signed(claims) } : { owner, claims };
      store.put(id, entry);
      // Also under the client's reference of the write: a client whose answer was lost (so it never saw
      // the id) fetches its receipt by the reference it made. One entry: both fetches get the same JWS.
      if (payload.kind === 'write' && payload.writeRef) store.put(byRef(owner, payload.writeRef), entry);
    },
    refuse(id: string, owner: string, why: string) {
      store.put(id, { owner, unsigned: why });
    },
  };
  const threaded = config.evidence.hashingThread === 'auto' ? availableParallelism() > 1 : config.evidence.hashingThread;
  const hasher = threaded ? new AnswerHasher(logger) : null;

  /** The policy rules that let a signed-in person through, by name (policy.ts allowedBy). */
  function ruleFor(person: Person, env: string, endpoint: Endpoint): string {
    const current = policy()?.current;
    if (!current) return 'signed in';
    const allowing = current.allowedBy(person.groups, env, endpoint);
    return `policy: ${allowing.length === 1 ? 'rule' : 'rules'} ${allowing.map((name) => `"${name}"`).join(', ')}`;
  }

  /** The claims every statement of a call has but its time and status. */
  const commonOf = (res: ServerResponse, caller: Caller, env: string) => ({
    environment: { name: env, host: hosts.get(env) ?? '' },
    who: caller.who,
    rule: caller.rule,
    requestId: String(res.getHeader('x-request-id') ?? ''),
  });

  return {
    keys,
    ready: store.ready,
    keyCaller(authorization, keyTag) {
      return { owner: `key:${sha256(authorization)}`, who: whoOf(null, keyTag), rule: 'personal key' };
    },
    personCaller(checker, token, env, endpoint, log) {
      const checked = checker.check(token);
      // The call has just passed the same check, so it is cached; were it not, the log holds the person.
      const person: Person =
        !(checked instanceof Promise) && checked.ok
          ? checked.person
          : { subject: log.person ?? '', name: log.personName ?? '', groups: [], expiresAt: 0 };
      return { owner: `person:${person.subject}`, who: whoOf(person, ''), rule: ruleFor(person, env, endpoint) };
    },
    tap(res, caller, env, endpoint, path, headers, body) {
      const read = endpoint.kind === 'dataset';
      if (!read && endpoint.method === 'GET') return null;
      const id = statementIdOn(res);
      headers['accept-encoding'] = 'identity';
      const common = commonOf(res, caller, env);
      return new AnswerTap(
        sink,
        hasher,
        res,
        id,
        caller.owner,
        read
          ? { kind: 'read', ...common, dataset: endpoint.id, path }
          : {
              kind: 'write',
              ...common,
              method: endpoint.method,
              path,
              bodySha256: createHash('sha256')
                .update(body ?? Buffer.alloc(0))
                .digest('hex'),
              ...writeRefOf(res.req),
            },
      );
    },
    projected(res, caller, env, endpoint, path, service, sent, fields) {
      const id = statementIdOn(res);
      const counter = new RecordCounter();
      counter.push(service);
      sink.issue(id, caller.owner, {
        kind: 'read',
        ...commonOf(res, caller, env),
        time: new Date().toISOString(),
        status: 200,
        dataset: endpoint.id,
        path,
        sha256: hash('sha256', service),
        length: service.length,
        records: counter.records,
        projection: { fields: [...fields], sha256: hash('sha256', sent), length: sent.length },
      });
    },
    jwks(req, res) {
      if (req.method !== 'GET' && req.method !== 'HEAD')
        return sendError(res, 'method-not-allowed', { headers: { allow: 'GET, HEAD' } });
      res.setHeader('content-type', 'application/jwk-set+json');
      // Verifiers may cache it briefly; a rotation lists the new key at once and keeps the old one.
      res.setHeader('cache-control', 'public, max-age=300');
      res.end(req.method === 'HEAD' ? undefined : keys.jwks());
    },
    statement(req, res, rawPath, checker) {
      if (req.method !== 'GET') return sendError(res, 'method-not-allowed', { headers: { allow: 'GET' } });
      const id = rawPath.slice(STATEMENTS_PATH.length + 1);
      // `ref/<write reference>`: a write's receipt by the client's reference, kept per caller (sink.issue).
      const ref = id.startsWith(`${WRITE_REF_SEGMENT}/`) ? id.slice(WRITE_REF_SEGMENT.length + 1) : null;
      if (ref !== null ? !WRITE_REF.test(ref) : !/^[0-9a-f-]{36}$/.test(id)) return sendError(res, 'statement-not-found');
      const authorization = req.headers.authorization ?? '';
      const answer = (owner: string) => {
        const found = store.get(ref !== null ? byRef(owner, ref) : id);
        const reply = (s: Awaited<typeof found>) => {
          if (!s) return sendError(res, 'statement-not-found');
          if (s.owner !== owner) return sendError(res, 'statement-not-yours');
          if (s.unsigned) return sendError(res, 'statement-not-signed', { message: `No statement: ${s.unsigned}.` });
          // Signed once: a second fetch gets the same statement.
          s.jws ??= signed(s.claims!);
          res.setHeader('content-type', 'application/json; charset=utf-8');
          res.end(JSON.stringify({ statement: s.jws }));
        };
        return found instanceof Promise ? found.then(reply) : reply(found);
      };
      if (/^Basic /i.test(authorization)) return answer(`key:${sha256(authorization)}`);
      const token = bearerToken(authorization);
      if (!token || !checker) return sendError(res, checker ? 'sign-in-required' : 'no-credentials');
      const checked = checker.check(token);
      const go = (c: Awaited<typeof checked>) =>
        c.ok ? answer(`person:${c.person.subject}`) : sendError(res, c.code, { message: c.message });
      return checked instanceof Promise ? checked.then(go) : go(checked);
    },
    reload: (reason) => keys.reload(reason),
    start: () => keys.start(),
    stop() {
      keys.stop();
      store.stop();
      hasher?.stop();
    },
  };
}
