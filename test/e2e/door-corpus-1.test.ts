/**
 * The taskpane door (door.ts) for three customer files of the corpus: Swagger 2.0 YAML (northwind),
 * OpenAPI 3.0 JSON (initech), OpenAPI 3.1 YAML with envelopes (hooli). Screenshots of the flow's example
 * request at 1280 and 350 px (test/e2e/screenshots/door-example-incidents-*.png).
 */
import { doorTests } from './door';

doorTests(['northwind.swagger.yaml', 'initech.openapi.json', 'hooli.openapi.yaml'], { file: 'initech.openapi.json', flow: 'incidents' });
