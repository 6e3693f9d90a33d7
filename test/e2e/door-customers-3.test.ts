/**
 * The taskpane door (door-customers.ts) for the last customer files of test/binding/customers: Swashbuckle for
 * AutoRest clients with x-ms-enum (oscorp), Microsoft.AspNetCore.OpenApi on .NET 10 (OpenAPI 3.1) and .NET 11
 * (OpenAPI 3.2) (monarch).
 */
import { customerDoorTests } from './door-customers';

customerDoorTests(['oscorp.swashbuckle-autorest.json', 'monarch.aspnet10.json', 'monarch.aspnet11.json']);
