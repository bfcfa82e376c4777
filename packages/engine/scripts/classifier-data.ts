// Generated training data for the two shipped classifiers. Deterministic for a seed.

export type Rng = () => number;

/** mulberry32: a small seeded generator. */
export function rng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(r: Rng, items: readonly T[]): T => items[Math.floor(r() * items.length)] as T;
const int = (r: Rng, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
const chars = (r: Rng, alphabet: string, n: number) =>
  Array.from({ length: n }, () => alphabet[Math.floor(r() * alphabet.length)]).join("");

const UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const LOWER = "abcdefghijklmnopqrstuvwxyz";
const DIGITS = "0123456789";
const B62 = UPPER + LOWER + DIGITS;
const HEX = "0123456789abcdef";
const B64 = `${B62}+/`;

const WORDS = [
  "user",
  "config",
  "session",
  "handler",
  "request",
  "response",
  "token",
  "parse",
  "build",
  "cache",
  "index",
  "module",
  "server",
  "client",
  "error",
  "value",
  "result",
  "render",
  "login",
  "auth",
  "expires",
  "update",
  "create",
  "delete",
  "format",
  "stream",
  "buffer",
];

/** One credential example: the token, the text before it on its line, and its label. */
export interface CredentialExample {
  readonly token: string;
  readonly context: string;
  readonly label: 0 | 1;
}

const KEY_CONTEXTS = [
  "API_KEY=",
  "api_key: ",
  "export SECRET_TOKEN=",
  "Authorization: Bearer ",
  "password=",
  '"client_secret": "',
  "token = '",
  "aws_secret_access_key = ",
  "STRIPE_KEY=",
  "key: ",
  "DB_PASSWORD=",
  "--token ",
  "secret: ",
  "access_token=",
  "",
  "",
  "",
];
const NEUTRAL_CONTEXTS = [
  "",
  "",
  "at ",
  "import ",
  "  ",
  "file ",
  "see ",
  "// ",
  "name: ",
  "id: ",
  "from ",
  "-> ",
];

function secretToken(r: Rng): string {
  switch (int(r, 0, 11)) {
    case 0:
      return `sk-${chars(r, B62, int(r, 32, 48))}`;
    case 1:
      return `ghp_${chars(r, B62, 36)}`;
    case 2:
      return `AKIA${chars(r, UPPER + DIGITS, 16)}`;
    case 3:
      return `xoxb-${chars(r, DIGITS, 11)}-${chars(r, DIGITS, 12)}-${chars(r, B62, 24)}`;
    case 4:
      return `eyJ${chars(r, B64, int(r, 20, 40))}.eyJ${chars(r, B64, int(r, 30, 60))}.${chars(r, `${B62}-_`, 43)}`;
    case 5:
      return chars(r, HEX, pick(r, [32, 40, 64]));
    case 6:
      return chars(r, B64, int(r, 30, 60));
    case 7:
      return `${pick(r, ["sk_live_", "rk_live_", "hf_", "npm_", "glpat-", "AIza", "pk_test_"])}${chars(r, B62, int(r, 20, 36))}`;
    case 8:
      return `${chars(r, B62, int(r, 8, 12))}${pick(r, ["!", "#", "$", "%", "@"])}${chars(r, B62, int(r, 8, 16))}`;
    default:
      return chars(r, B62, int(r, 20, 64));
  }
}

function ordinaryToken(r: Rng): { token: string; context: string } {
  const camel = () =>
    Array.from({ length: int(r, 3, 5) }, (_, i) => {
      const w = pick(r, WORDS);
      return i === 0 ? w : w[0]?.toUpperCase() + w.slice(1);
    }).join("");
  switch (int(r, 0, 10)) {
    case 0:
      return {
        token: chars(r, HEX, 40),
        context: pick(r, ["commit ", "Merge: ", "HEAD is now at ", "sha ", "* "]),
      };
    case 1:
      return {
        token: chars(r, HEX, pick(r, [7, 12, 40])),
        context: `${pick(r, ["", "  "])}commit `,
      };
    case 2:
      return {
        token: `${chars(r, HEX, 8)}-${chars(r, HEX, 4)}-${chars(r, HEX, 4)}-${chars(r, HEX, 4)}-${chars(r, HEX, 12)}`,
        context: pick(r, ["id: ", "uuid=", "request ", ""]),
      };
    case 3:
      return { token: camel(), context: pick(r, NEUTRAL_CONTEXTS) };
    case 4:
      return {
        token: Array.from({ length: int(r, 3, 5) }, () => pick(r, WORDS))
          .join("_")
          .toUpperCase(),
        context: pick(r, ["export const ", "", "process.env."]),
      };
    case 5:
      return {
        token: `/${Array.from({ length: int(r, 3, 6) }, () => pick(r, WORDS)).join("/")}.${pick(r, ["ts", "js", "json", "py"])}`,
        context: pick(r, ["at ", "file ", "", "Error in "]),
      };
    case 6:
      return { token: `sha512-${chars(r, B64, 86)}==`, context: '"integrity": "' };
    case 7:
      return {
        token: `https://${pick(r, WORDS)}.example.com/${pick(r, WORDS)}/${pick(r, WORDS)}`,
        context: pick(r, ["see ", "GET ", "", "url: "]),
      };
    case 8:
      return {
        token: `${pick(r, WORDS)}-${pick(r, WORDS)}@${int(r, 0, 9)}.${int(r, 0, 20)}.${int(r, 0, 30)}`,
        context: pick(r, ["+ ", "added ", ""]),
      };
    case 9:
      return {
        token: `${camel()}.test.${pick(r, ["ts", "js"])}`,
        context: pick(r, ["PASS ", "FAIL ", " ✓ "]),
      };
    default:
      return {
        token: `${pick(r, WORDS)}${pick(r, WORDS)}${int(r, 1000, 99999)}${pick(r, WORDS)}`,
        context: pick(r, NEUTRAL_CONTEXTS),
      };
  }
}

/** `n` credential examples, about half of them credentials. */
export function credentialExamples(seed: number, n: number): CredentialExample[] {
  const r = rng(seed);
  return Array.from({ length: n }, (): CredentialExample => {
    if (r() < 0.5) return { token: secretToken(r), context: pick(r, KEY_CONTEXTS), label: 1 };
    return { ...ordinaryToken(r), label: 0 };
  });
}

/** One risky-call example: the call as text (`Bash: ...`) and its label. */
export interface CallExample {
  readonly text: string;
  readonly label: 0 | 1;
}

const BUILD_DIRS = [
  "dist",
  "build",
  "node_modules",
  "target",
  ".cache",
  "coverage",
  "out",
  ".next",
  "__pycache__",
  ".turbo",
  "tmp/build",
];
const RM_FLAGS = ["-rf", "-fr", "-r -f", "-Rf", "--recursive --force", "-rfv"];

const folder = (r: Rng) =>
  pick(r, [
    "src",
    "lib",
    "app",
    "docs",
    "packages",
    "config",
    "test",
    "data",
    "scripts",
    pick(r, WORDS),
  ]);

function riskyCommand(r: Rng): string {
  switch (int(r, 0, 13)) {
    case 0:
      return `rm ${pick(r, RM_FLAGS)} ${pick(r, ["/", "~", "~/", "$HOME", "/*", "..", "../..", "/etc", "/usr", "*", ".", ".git"])}`;
    case 1:
      return `rm ${pick(r, RM_FLAGS)} ${folder(r)}`;
    case 2:
      return `rm ${pick(r, RM_FLAGS)} ../${folder(r)}`;
    case 3:
      return `git push ${pick(r, ["--force", "-f", "--force-with-lease", "origin +main", "-f origin main", "origin main --force"])}`;
    case 4:
      return `git reset --hard ${pick(r, ["", "HEAD~3", "origin/main", "HEAD^"])}`.trim();
    case 5:
      return `git clean ${pick(r, ["-fdx", "-fd", "-xdf", "-ffdx"])}`;
    case 6:
      return `git branch -D ${pick(r, WORDS)}`;
    case 7:
      return `${pick(r, ["curl -fsSL", "wget -qO-", "curl -s"])} https://${pick(r, WORDS)}.example.sh/install | ${pick(r, ["sh", "bash", "sudo bash"])}`;
    case 8:
      return `chmod -R 777 ${pick(r, ["/", "~", ".", "/var/www"])}`;
    case 9:
      return pick(r, [
        "dd if=/dev/zero of=/dev/sda",
        "mkfs.ext4 /dev/sdb1",
        "shred -u secrets.txt",
        ":(){ :|:& };:",
      ]);
    case 10:
      return `${pick(r, ["psql", "mysql"])} -c "DROP ${pick(r, ["TABLE", "DATABASE"])} ${pick(r, WORDS)}"`;
    case 11:
      return pick(r, [
        "kubectl delete namespace prod",
        "terraform destroy -auto-approve",
        "docker system prune -af --volumes",
        "npm publish",
        "find . -name '*.ts' -delete",
        "git filter-branch --force",
      ]);
    case 12:
      return `sudo ${pick(r, ["rm -rf /var/lib", "chown -R root /", "apt-get remove -y git"])}`;
    default:
      return `git checkout ${pick(r, ["-- .", "."])} && git stash drop`;
  }
}

function safeCommand(r: Rng): string {
  switch (int(r, 0, 11)) {
    case 0:
      return `rm ${pick(r, RM_FLAGS)} ${pick(r, BUILD_DIRS)}`;
    case 1:
      return `rm ${pick(r, RM_FLAGS)} ${pick(r, BUILD_DIRS)} ${pick(r, BUILD_DIRS)} && ${pick(r, ["npm ci", "pnpm install", "npm run build"])}`;
    case 2:
      return pick(r, [
        "npm test",
        "pnpm test",
        "npm run build",
        "cargo test",
        "pytest -q",
        "go test ./...",
        "make",
        "tsc -b",
        "npx vitest run",
      ]);
    case 3:
      return `git ${pick(r, ["status", "diff", "log --oneline -5", "add -A", "commit -m 'fix login'", `checkout -b ${pick(r, WORDS)}`, "fetch", "pull --rebase", "stash", "reset --soft HEAD~1"])}`;
    case 4:
      return `git push ${pick(r, ["", `origin ${pick(r, WORDS)}`, `-u origin ${pick(r, WORDS)}`])}`.trim();
    case 5:
      return `${pick(r, ["ls -la", "cat", "head -20", "wc -l", "grep -rn TODO"])} ${folder(r)}`;
    case 6:
      return `rm ${folder(r)}/${pick(r, WORDS)}.${pick(r, ["tmp", "log", "bak", "orig"])}`;
    case 7:
      return `mkdir -p ${folder(r)}/${pick(r, WORDS)}`;
    case 8:
      return `chmod +x scripts/${pick(r, WORDS)}.sh`;
    case 9:
      return pick(r, [
        "kubectl get pods",
        "terraform plan",
        "docker build -t app .",
        "docker ps",
        "npm ls",
        "node --version",
      ]);
    case 10:
      return `curl -s https://${pick(r, WORDS)}.example.com/api -o ${pick(r, WORDS)}.json`;
    default:
      return `echo ${pick(r, WORDS)} && ${pick(r, ["npm test", "ls", "pwd"])}`;
  }
}

const PREFIXES = ["", "", "", "cd packages/app && ", "set -e; ", "cd .. && "];

/** `n` risky-call examples, about half of them risky. */
export function callExamples(seed: number, n: number): CallExample[] {
  const r = rng(seed);
  return Array.from({ length: n }, (): CallExample => {
    const risky = r() < 0.5;
    const command = risky ? riskyCommand(r) : safeCommand(r);
    return { text: `Bash: ${pick(r, PREFIXES)}${command}`, label: risky ? 1 : 0 };
  });
}
