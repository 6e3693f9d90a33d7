import run from '../binding-import';
run().then(console.log);
