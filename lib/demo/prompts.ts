// The demo project's prompts: file edits the demo agent carries out (bin/demo-agent.mjs),
// with a pause in each so a newcomer can watch runs start, stream and finish.
export const demoPrompts = [
  {
    number: 1, priority: 2, dependencies: [] as number[], title: "Add a greeting module",
    body: "Create the greeting module.\n\nprint Writing src/greet.js\nsleep 3000\n\n```file src/greet.js\nexport const greet = (name) => `Hello, ${name}!`;\n```\n",
  },
  {
    number: 2, priority: 2, dependencies: [], title: "Add a farewell module",
    body: "Create the farewell module.\n\nprint Writing src/farewell.js\nsleep 3000\n\n```file src/farewell.js\nexport const farewell = (name) => `Goodbye, ${name}!`;\n```\n",
  },
  {
    number: 3, priority: 3, dependencies: [1, 2], title: "Wire both into the entry point",
    body: "Use both modules from the entry point.\n\nsleep 3000\n\n```file src/index.js\nimport { greet } from './greet.js';\nimport { farewell } from './farewell.js';\nconsole.log(greet('world'));\nconsole.log(farewell('world'));\n```\n",
  },
  {
    number: 4, priority: 4, dependencies: [3], title: "Document the usage",
    body: "Document how to run it.\n\nsleep 2000\n\n```append README.md\n\n## Usage\n\n    node src/index.js\n```\n",
  },
];
