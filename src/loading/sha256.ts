/** SHA-256 lives with the client, which checks the relay's statements with it (the loading code is above the client). */
export { Sha256, cellsLine, hexInto, hexOf, sha256Cells, sha256Hex, sha256Text } from '../client/sha256';
