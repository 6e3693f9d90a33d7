/**
 * The taskpane door (door-customers.ts) for more customer files of test/binding/customers: springdoc (gekko),
 * FastAPI with a form-data hyperlink (prestige), a hand-kept Swagger 2.0 YAML with merge keys and dd-MM-yyyy dates
 * (duff), Swashbuckle as Swagger 2.0 with a multipart hyperlink (umbrella).
 */
import { customerDoorTests } from './door-customers';

customerDoorTests(['gekko.springdoc.json', 'prestige.fastapi.json', 'duff.swagger.yaml', 'umbrella.swashbuckle-v2.json']);
