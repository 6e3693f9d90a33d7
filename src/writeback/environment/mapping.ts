import { describeEncoding, type Placement } from '../../catalog';
import type { AnyFlow } from '../flow';
import type { EnvironmentInfo } from './availability';
import { bindEnvironment, flowOperations } from './context';
import { fileOperation } from './encode';

/** A template column and where its value goes, in the file's words: "Name" -> "title". */
export interface ColumnMapping {
  column: string;
  /** The file's own property or parameter name ("reportingOrganisation", "path incidentId"), and how the value is written there. */
  file: string;
}

/** One operation of a flow as the environment's file has it: the flow's notice shows it, collapsed. */
export interface OperationMapping {
  /** The catalogue's name for the operation: "Create incident". */
  title: string;
  /** Where it is in the file: "POST /incidents (Incidents_Register)". */
  file: string;
  columns: ColumnMapping[];
  /** The file's own columns (extras), by header, with their property name. */
  extras: ColumnMapping[];
  /** Columns of the flow the file has no place for: not in a template made for this environment. */
  unplaced: string[];
}

/**
 * The flow's mapping on an environment in the file's words, operation by operation: which column goes to
 * which property or parameter, the file's own extra columns, and the columns it has no place for. Fixed
 * columns only; custom field columns are summed up as one line.
 */
export function flowMapping(flow: AnyFlow, environment: EnvironmentInfo): OperationMapping[] {
  const env = bindEnvironment(environment);
  const out: OperationMapping[] = [];
  for (const id of flowOperations(flow)) {
    if (env.endpoints?.[id]?.unavailable) continue;
    const op = env.operation(id);
    const name = (p: { in: string; fileName: string }) => (p.in === 'body' ? p.fileName : `${p.in} ${p.fileName}`);
    // How the value is written there, when not as typed: "name -> {Guid, Name} (organizations)", "date-time".
    const how = (p: Placement) => (p.encoding.kind === 'plain' ? '' : ` (${describeEncoding(p.encoding)})`);
    const columns: ColumnMapping[] = [];
    const unplaced: string[] = [];
    for (const [column, places] of Object.entries(flow.places)) {
      for (const place of places.filter((p) => p.operation === id)) {
        const p =
          op.placements.find((x) => x.field === place.field) ??
          op.placements.find((x) => x.encoding.kind === 'number-unit' && x.encoding.unitField === place.field);
        if (p) columns.push({ column, file: `${name(p)}${how(p)}` });
        else unplaced.push(column);
      }
    }
    const custom = id === flow.operations[0] ? op.placements.find((p) => p.field === 'CustomFields') : undefined;
    if (custom) columns.push({ column: 'Custom fields', file: name(custom) });
    out.push({
      title: env.catalog.operation(id).title,
      file: fileOperation(op),
      columns,
      extras: op.extras.map((x) => ({ column: x.header, file: `${name(x)}${x.required ? ', required' : ''}` })),
      unplaced,
    });
  }
  return out;
}
