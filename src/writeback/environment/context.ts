import type { z } from 'zod';
import { catalog, widenBody, type WireShape } from '../../catalog';
import type { Standing } from '../api';
import { directory, type Directory } from '../checks/names';
import {
  extraProperties,
  flowAvailability,
  type EndpointInfo,
  type EnvironmentInfo,
  type ExtraProperty,
  type FlowAvailability,
  type FlowNeeds,
  type SkippedStep,
} from './availability';

/**
 * The bound catalogue of one environment as write-back reads it: what the relay says about each catalogue
 * call there (GET /api/environments), and what follows from it for a body (its schema widened by the
 * file's enum values, the fields the file wants as GUIDs). Built once per template or post and passed
 * explicitly: the flows, the row reader and the runner read it, nothing keeps it in module state.
 */
export interface BoundEnvironment {
  readonly name: string;
  readonly production: boolean;
  /** Absent: an environment taken at the catalogue's word (an older relay, tests): every call available. */
  readonly endpoints: Readonly<Record<string, EndpointInfo>> | undefined;
  /** The operation's body schema here: the catalogue's, taking the enum values the file adds. */
  bodySchema(operationId: string): z.ZodType | null;
  /** The values an enum field offers and accepts: the spec's, then those the file adds, spelled as the file spells them. */
  enumValues(operationId: string, field: string, own: readonly string[]): string[];
  /** Whether the file wants a GUID where the catalogue has a name: format uuid, or a property path ending in guid. */
  wantsGuid(operationId: string, field: string): boolean;
}

export function bindEnvironment(info: EnvironmentInfo): BoundEnvironment {
  const endpoints = info.endpoints;
  const schemas = new Map<string, z.ZodType | null>();
  const bodyOf = (id: string) => endpoints?.[id]?.body;
  return {
    name: info.name,
    production: info.production,
    endpoints,
    bodySchema(id) {
      let schema = schemas.get(id);
      if (schema === undefined) {
        const base = catalog.operation(id).body;
        const enums = bodyOf(id)?.enums;
        schema = base && enums ? widenBody(base, { enums } as WireShape) : base;
        schemas.set(id, schema);
      }
      return schema;
    },
    enumValues(id, field, own) {
      const more = bodyOf(id)?.enums?.[field]?.values ?? [];
      return [...own, ...more.filter((v) => !own.includes(v))];
    },
    wantsGuid(id, field) {
      const body = bodyOf(id);
      if (!body) return false;
      if (body.formats?.[field] === 'uuid') return true;
      const to = body.properties?.[field];
      const path = typeof to === 'string' ? to : to?.path;
      return path !== undefined && /guid$/i.test(path);
    },
  };
}

/**
 * One flow on one environment, once its standing data is loaded: the environment, whether and how the flow
 * can post there (computed once), the extra columns the file requires, and the standing lists names are
 * looked up in. Every part of a post reads this one value.
 */
export interface FlowContext {
  readonly environment: BoundEnvironment;
  readonly availability: FlowAvailability;
  /** Properties the file requires that no catalogue field fills: one template column each. */
  readonly extras: readonly ExtraProperty[];
  /** The lists names are resolved in where the file wants a GUID. */
  readonly lists: Directory;
  /** The skipped step whose operation is `operationId`, or whose follow-up adds `what`. */
  skippedStep(by: { operationId: string } | { what: string }): SkippedStep | undefined;
}

export function flowContext(
  flow: FlowNeeds,
  environment: BoundEnvironment,
  standing: Standing,
  availability: FlowAvailability = flowAvailability(flow, environment),
): FlowContext {
  const skipped = availability.skipped ?? [];
  return {
    environment,
    availability,
    extras: extraProperties(flow, environment),
    lists: directory(standing),
    skippedStep: (by) =>
      skipped.find((s) => ('operationId' in by ? s.id === by.operationId : s.what === by.what)),
  };
}

/** The catalogue's own environment: no binding, every call available (flow unit tests, the bench). */
export const catalogueEnvironment = (name = 'catalogue'): BoundEnvironment =>
  bindEnvironment({ name, production: false });
