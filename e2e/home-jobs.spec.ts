/**
 * Home asks what you want to do: one card per research job, each saying where the person stands and opening
 * the job's first screen; projects are reachable from demo mode. Light, dark and a small window.
 */
import { expect, test } from './fixtures';
import { shootLooks } from './support/explorer';

test('Home offers each research job with where you stand, and the team job reaches projects in demo mode', async ({
  skein,
}, testInfo) => {
  // four steps shot in three looks each: 22 s alone, 41 s of the default 60 with two other suites running
  test.setTimeout(90_000);
  const { page } = skein;
  const jobs = page.getByRole('region', { name: 'What do you want to do?' });
  for (const name of [
    'Collect a dataset from a view',
    'Watch accounts over time',
    'Hydrate a shared id list',
    'Code a sample with a colleague',
    'Share or cite a dataset',
    'Work as a team',
  ])
    await expect(jobs.getByRole('link', { name, exact: true })).toBeVisible();
  // where the person stands, read from the demo project
  await expect(jobs.getByRole('link', { name: 'Watch accounts over time' })).toHaveAccessibleDescription(
    /No watch yet\.$/,
  );
  await expect(jobs.getByRole('link', { name: 'Work as a team' })).toHaveAccessibleDescription(
    /Demo data stays on this computer/,
  );
  await shootLooks(page, testInfo, 'home-01-jobs');

  await jobs.getByRole('link', { name: 'Work as a team' }).click();
  await expect(page.getByRole('heading', { name: 'Archive', level: 1 })).toBeVisible();
  const project = page.getByRole('region', { name: 'Project' });
  await project.getByText('Manage projects').click();
  await expect(project.getByText(/the one chosen is used as soon as you switch to Live/)).toBeVisible();
  await expect(project.getByRole('button', { name: 'Rename the live project' })).toBeVisible();
  await expect(project.getByText('Team project on PostgreSQL')).toBeVisible();
  await shootLooks(page, testInfo, 'home-02-team-projects', { show: project });

  // Settings says where projects are managed, in demo mode too
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Settings' }).click();
  const projects = page.getByRole('region', { name: 'Projects' });
  await expect(projects.getByRole('link', { name: 'Manage projects in the Archive' })).toBeVisible();
  await shootLooks(page, testInfo, 'home-03-settings-projects', { show: projects });
  await projects.getByRole('link', { name: 'Manage projects in the Archive' }).click();
  await expect(page.getByRole('heading', { name: 'Archive', level: 1 })).toBeVisible();

  // back at Home, the watch job opens the watches
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Home' }).click();
  await jobs.getByRole('link', { name: 'Watch accounts over time' }).click();
  await expect(page.getByRole('heading', { name: 'Watches', level: 1 })).toBeVisible();
  await shootLooks(page, testInfo, 'home-04-watches');
});
