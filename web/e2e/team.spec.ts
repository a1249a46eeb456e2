// Journey: a store's team. The owner invites someone by email as staff from the Team page (from the
// admin navigation); the invitee, signed up with that address in another browser, opens the link
// from the local inbox and accepts; the store is then in their admin, and the Team page (the
// owner's alone) tells them their role does not allow it. Screenshots of the Team page and the
// invitation page at 390 and 1280 px, with no WCAG 2.1 AA violation at either size.
import { expect, test } from '@playwright/test';
import { TEAM_MESSAGES } from '@store/shared';
import { readStackInfo } from '@store/stack/stack-info';
import { createStore, PASSWORD, signUp, unique } from './admin-helpers.ts';
import { accessibilityViolations } from './support/accessibility.ts';
import { SCREEN_SIZES, snapBoth } from './support/screenshots.ts';

const stack = readStackInfo();
type Mail = { id: number; to: string[]; subject: string; text: string };

test('the owner invites a staff member, who accepts from the mailed link and gets staff limits', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  await signUp(page.request, unique('owner'));
  const store = await createStore(page.request, unique('Team Shop'));

  await page.setViewportSize(SCREEN_SIZES.laptop);
  await page.goto('/admin');
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Team' }).click();
  await expect(page).toHaveURL(/\/admin\/team/);
  await page.getByRole('combobox', { name: 'Store' }).selectOption({ label: store.name });
  const email = `${unique('packer')}@example.com`;
  await page.getByLabel('Email').fill(email);
  await page.getByRole('combobox', { name: 'Role' }).selectOption('staff');
  await page.getByLabel('Refund limit (USDC per refund)').fill('25');
  await page.getByRole('button', { name: 'Send invitation' }).click();
  const invitations = page.getByRole('region', { name: 'Invitations' });
  await expect(invitations.getByRole('row', { name: new RegExp(email) })).toContainText('pending');
  await snapBoth(page, 'team-owner', { noSidewaysScroll: true });
  for (const viewport of Object.values(SCREEN_SIZES)) {
    await page.setViewportSize(viewport);
    expect(await accessibilityViolations(page)).toEqual([]);
  }

  // The invitee: an account of that address, in a browser of their own.
  const other = await browser.newContext({ baseURL: stack.webUrl });
  const member = await other.newPage();
  const signedUp = await member.request.post('/api/auth/sign-up', {
    data: { username: unique('packer'), password: PASSWORD, email },
  });
  expect(signedUp.status(), await signedUp.text()).toBe(201);
  const find = async () =>
    ((await (await member.request.get(`${stack.mailInboxUrl}/api/messages`)).json()) as Mail[])
      .filter(
        (mail) => mail.to.includes(email) && mail.subject === `Join ${store.name} on Storefront`,
      )
      .at(-1);
  await expect.poll(find, { timeout: 30_000 }).toBeTruthy();
  const mail = (await find()) as Mail;
  const link = /https?:\/\/\S+\?token=[\w-]+/.exec(mail.text)?.[0] ?? '';
  expect(link.startsWith(`${stack.webUrl}/accept-invitation?token=`), mail.text).toBe(true);
  await member.goto(link);
  await expect(member.getByRole('heading', { name: "Join a store's team" })).toBeVisible();
  await snapBoth(member, 'team-accept', { noSidewaysScroll: true });
  for (const viewport of Object.values(SCREEN_SIZES)) {
    await member.setViewportSize(viewport);
    expect(await accessibilityViolations(member)).toEqual([]);
  }
  await member.getByRole('button', { name: 'Accept the invitation' }).click();
  await expect(member).toHaveURL(/\/admin$/);
  await expect(member.getByText(store.name).first()).toBeVisible();

  // Staff: the store's orders, not its team.
  await member.goto(`/admin/team?storeId=${store.id}`);
  await expect(member.getByRole('alert')).toHaveText(TEAM_MESSAGES.forbidden);
  await member.goto(link);
  await member.getByRole('button', { name: 'Accept the invitation' }).click();
  await expect(member.getByText(TEAM_MESSAGES.invitationInvalid)).toBeVisible();

  // The owner sees the new member with the limit.
  await page.setViewportSize(SCREEN_SIZES.laptop);
  await page.reload();
  const members = page.getByRole('region', { name: 'Members' });
  await expect(members.getByRole('row', { name: new RegExp(email) })).toContainText('25.00 USDC');
  await snapBoth(page, 'team-owner-with-member', { noSidewaysScroll: true });
  await other.close();
});
