/**
 * The taskpane door (door-customers.ts) for the first customer files of test/binding/customers: Swashbuckle with
 * integer enums (tyrell), with string enums (wayne), NSwag (nakatomi).
 */
import { customerDoorTests } from './door-customers';

customerDoorTests(['tyrell.swashbuckle.json', 'wayne.swashbuckle-strings.json', 'nakatomi.nswag.json']);
