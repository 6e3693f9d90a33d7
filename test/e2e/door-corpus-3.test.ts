/**
 * The taskpane door (door.ts) for the corpus files with the encodings real generators write: juniper
 * (multipart and urlencoded form bodies), pinewood (hand-kept Swagger 2.0 YAML, merge keys), larkspur
 * (Swashbuckle, integer enums).
 */
import { doorTests } from './door';

doorTests(['juniper.openapi.yaml', 'pinewood.swagger.yaml', 'larkspur.swashbuckle.json'], undefined);
