#!/usr/bin/env node
/**
 * The `autograph-ts` command.
 *   autograph-ts show <file.ts> [--function name] [--project tsconfig.json]
 * prints the converted code of the file's converted functions, each control-flow statement
 * annotated static / staged / dynamic with the type the checker saw.
 *   autograph-ts init [--force]       writes what a project needs (cli/init.ts)
 *   autograph-ts doctor [--project tsconfig.json]   checks the project's install (cli/doctor.ts)
 */
// Each command is loaded when it runs: init and doctor must start where the transformer cannot
// (a project with TypeScript 7, whose package has no compiler API, is one the doctor reports).
/* eslint-disable @typescript-eslint/no-require-imports */

const USAGE = [
  'usage: autograph-ts show <file.ts> [--function name] [--project tsconfig.json]',
  '       autograph-ts init [--force]                    tsconfig.json, .npmrc, src/main.ts, package.json scripts',
  '       autograph-ts doctor [--project tsconfig.json]  checks this project\'s install and says what to fix',
].join('\n');

function main(argv: string[]): number {
  const [command, ...rest] = argv;
  if (command === '--help' || command === '-h' || command === undefined) {
    console.log(USAGE);
    return command === undefined ? 2 : 0;
  }
  if (command === 'init') return (require('./cli/init') as typeof import('./cli/init')).initCommand(rest);
  if (command === 'doctor') return (require('./cli/doctor') as typeof import('./cli/doctor')).doctorCommand(rest);
  if (command !== 'show') {
    console.error(`autograph-ts: unknown command '${command}'\n${USAGE}`);
    return 2;
  }
  const files: string[] = [];
  let functionName: string | undefined;
  let project: string | undefined;
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] === '--function' || rest[i] === '-f') functionName = rest[++i];
    else if (rest[i] === '--project' || rest[i] === '-p') project = rest[++i];
    else files.push(rest[i]);
  }
  if (files.length !== 1 || (rest.includes('--function') && functionName === undefined)) {
    console.error(USAGE);
    return 2;
  }
  try {
    const { showFile } = require('./show') as typeof import('./show');
    process.stdout.write(showFile(files[0], { functionName, project }));
    return 0;
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    return 1;
  }
}

process.exitCode = main(process.argv.slice(2));
