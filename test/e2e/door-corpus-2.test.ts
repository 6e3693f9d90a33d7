/**
 * The taskpane door (door.ts) for the other customer files of the corpus: vandelay (Swagger 2.0 JSON,
 * Location-only answers, a joined notice period), soylent (wrapped bodies, readOnly/writeOnly), wonka
 * (OpenAPI 3.1, arrays of one), cyberdyne (RPC paths). A screenshot of the contracts example at 1280 and 350 px.
 */
import { doorTests } from './door';

doorTests(['vandelay.swagger.json', 'soylent.openapi.yaml', 'wonka.openapi.json', 'cyberdyne.openapi.yaml'], { file: 'wonka.openapi.json', flow: 'contracts' });
