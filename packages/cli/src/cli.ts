#!/usr/bin/env node
import { main } from './main.js';

void main(process.argv).then((code) => {
  process.exitCode = code;
});
