import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, it } from 'node:test';
import { CONSOLE, checkTree, importsOf, SERVER, violations } from '../../../scripts/check-layers.ts';

const repoRoot = path.join(import.meta.dirname, '../../..');

/** The import-direction rule of scripts/check-layers.ts, which `npm run lint` runs over the real trees. */
describe('import layers', () => {
  it('the server and the console have no import that runs the wrong way', () => {
    assert.deepEqual(checkTree(repoRoot, SERVER), []);
    assert.deepEqual(checkTree(repoRoot, CONSOLE), []);
  });

  it('catches a planted wrong-way import in the server', () => {
    const planted = [
      ...importsOf('core/domains/domains.service.ts', "import { buildApp } from '../../http/app.ts';"),
      ...importsOf('lib/secret-box.ts', "import type { Core } from '../compose.ts';"),
      ...importsOf(
        'mta/pipeline/sign.step.ts',
        "import { findDomainByName } from '../../core/domains/domains.repo.ts';",
      ),
      ...importsOf(
        'core/suppression/suppression.service.ts',
        "import type { X } from '../../mta/outcome/classify.ts';",
      ),
      ...importsOf('mta/mx.ts', "const w = new Worker(new URL('../sms/carrier.ts', import.meta.url));"),
    ];
    const found = violations(SERVER, planted).map((v) => `${v.from} → ${v.to}`);
    assert.deepEqual(found, [
      'core/domains/domains.service.ts → http/app.ts',
      'lib/secret-box.ts → compose.ts',
      'mta/pipeline/sign.step.ts → core/domains/domains.repo.ts',
      'core/suppression/suppression.service.ts → mta/outcome/classify.ts',
      'mta/mx.ts → sms/carrier.ts',
    ]);
  });

  it('lets imports run down, and the core reach a channel only through its ports', () => {
    const fine = [
      ...importsOf('http/routes/domains.routes.ts', "import type { Core } from '../../compose.ts';"),
      ...importsOf('compose.ts', "import { DeliveryService } from './mta/pipeline/delivery.service.ts';"),
      ...importsOf('core/queues/send-policy.ts', "import type { SendPolicy } from '../../mta/ports.ts';"),
      ...importsOf('mta/pipeline/sign.step.ts', "import type { SecretBox } from '../../lib/secret-box.ts';"),
      ...importsOf('core/send/send.service.ts', "import { AppError } from '@herald/shared';"),
    ];
    assert.deepEqual(violations(SERVER, fine), []);
  });

  it('catches a console building block that imports the shell', () => {
    const planted = importsOf('api/labels.api.ts', "import { router } from '../app/router.ts';");
    assert.deepEqual(
      violations(CONSOLE, planted).map((v) => v.to),
      ['app/router.ts'],
    );
  });
});
