// An admin moves a Ghost site in from the browser: the export and a .zip of its images uploaded,
// checked first, the report read, then imported from the same files, and the articles there.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { photoWithMetadata } from '#tests/fixtures/images.ts'
import { zipArchive } from '#tests/fixtures/zip.ts'
import { expectNoAxeViolations } from './axe-check.ts'
import { expect, screenshotsAtWidths, serveCanopy, test, waitForHydration } from './canopy-test.ts'
import { signedInAs } from './signed-in.ts'

const server = serveCanopy()
signedInAs(server, { email: 'ada@example.org', role: 'admin', name: 'Ada Admin' })

test('an admin checks a Ghost export, reads the report, and imports it', async ({ page }) => {
	const folder = mkdtempSync(join(tmpdir(), 'canopy-e2e-move-in-'))
	const images = join(folder, 'images.zip')
	writeFileSync(
		images,
		zipArchive([{ name: 'content/images/2024/05/bog.jpg', data: await photoWithMetadata('jpeg') }]),
	)
	await page.goto('/admin')
	await waitForHydration(page)
	await page.getByRole('link', { name: 'Move in' }).click()
	await expect(page.getByRole('heading', { level: 1 })).toHaveText(
		'Move in from Ghost or WordPress',
	)
	await expectNoAxeViolations(page)
	await screenshotsAtWidths(page, 'move-in')

	await page.getByLabel('Export file').setInputFiles('tests/fixtures/imports/ghost-5.json')
	await page.getByLabel('Images (optional)').setInputFiles(images)
	await expect(page.getByLabel('Check it first')).toBeChecked()
	await page.getByRole('button', { name: 'Start' }).click()
	await expect(page.getByRole('heading', { name: 'What would come across' })).toBeVisible({
		timeout: 30_000,
	})
	const counts = page.locator('.move-in-counts')
	await expect(counts.getByText('Articles')).toBeVisible()
	await expect(counts).toContainText('6')
	await expect(page.getByText('Old mobiledoc post')).toBeVisible()
	await expectNoAxeViolations(page)
	await screenshotsAtWidths(page, 'move-in-report')

	await page.getByRole('button', { name: 'Import it now' }).click()
	await expect(page.getByRole('heading', { name: 'What came across' })).toBeVisible({
		timeout: 30_000,
	})
	await page.goto('/articles/peatlands-hold-the-carbon')
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('Peatlands hold the carbon')
	await expect(page.getByRole('img', { name: 'A raised bog at dawn' }).first()).toBeVisible()
	rmSync(folder, { recursive: true, force: true })
})
