import { importBinding, formatReport } from '../../src/binding';
importBinding(process.argv[2]!).then((r) => process.stdout.write(formatReport(r, { overrides: 'x.overrides' })));
