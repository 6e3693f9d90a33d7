export { formatReport, disables } from './report';
