import { href, Link } from "react-router";
import { LegalPage } from "~/components/legal-page";
import { brandName } from "~/lib/constants";
import { artistShare, minimumAge, processorFeeRange } from "~/lib/constants";
import { pageMeta } from "~/lib/sharing/meta";

export const meta = () =>
  pageMeta(
    "Terms of Use",
    `The terms for using ${brandName}: who may use it, what artists keep (ownership and ${artistShare.digitalPercent}% of digital sales) and what we all agree to.`,
  );

export default function Terms() {
  return (
    <LegalPage
      title="Terms of Use"
      intro={
        <>
          These terms are the agreement between you and {brandName} when you browse, listen, buy or sell on the service. Please read them;
          by creating an account or using {brandName} you accept them.
        </>
      }
    >
      <h2>1. Who can use {brandName}</h2>
      <p>
        You must be at least <strong>{minimumAge} years old</strong> to use {brandName}. If you are under the age of majority where you
        live, you may use the service only with the involvement of a parent or guardian, who accepts these terms on your behalf. You are
        responsible for keeping your password safe and for what happens under your account.
      </p>

      <h2>2. Your music stays yours</h2>
      <p>
        Artists <strong>keep full ownership</strong> of everything they upload: recordings, compositions, artwork, text and merchandise
        designs. By publishing on {brandName}, an artist grants us a <strong>non-exclusive, worldwide, royalty-free licence</strong> to
        host, stream, display, promote and deliver that content to fans, only for the purpose of running the service. Non-exclusive means
        you are free to sell and distribute the same work anywhere else. The licence ends when you remove the content, except for copies
        fans have already bought.
      </p>
      <p>
        You may only upload material you own or have the rights to sell. We remove content when we receive a valid notice that it infringes
        someone else's rights, and we close the accounts of repeat infringers.
      </p>

      <h2>3. Sales and revenue share</h2>
      <p>
        Artists receive <strong>{artistShare.digitalPercent}% of the price of every digital sale</strong> (tracks and albums) and{" "}
        {artistShare.physicalPercent}% of the price of every physical sale (merchandise). Payment processor fees, typically{" "}
        {processorFeeRange} of a transaction, are charged by the payment provider and handled separately from the revenue share. Payouts are
        made to the PayPal account an artist sets in their payment settings, subject to the minimum withdrawal threshold shown there.
      </p>
      <p>
        Fans buy a personal licence to listen to and download what they purchase. Buying music does not transfer ownership of it, and
        purchased music may not be resold or redistributed.
      </p>

      <h2>4. Community rules</h2>
      <ul>
        <li>Be respectful in comments. No harassment, hate speech, threats or spam.</li>
        <li>Do not impersonate another artist or person, or mislead fans about who made a work.</li>
        <li>Do not try to break, overload or get around the security of the service.</li>
        <li>Do not manipulate plays, follows, sales or other statistics.</li>
      </ul>
      <p>We may remove content or suspend accounts that break these rules. Where we can, we tell you why and for how long.</p>

      <h2>5. The service</h2>
      <p>
        We work hard to keep {brandName} available and your files safe, but the service is provided as it is, and we cannot promise it will
        always be uninterrupted or error-free. To the extent the law allows, our liability to you is limited to the amounts you paid us, or
        that we owe you, in the twelve months before a claim.
      </p>

      <h2>6. Changes</h2>
      <p>
        We may update these terms as the service grows. When a change matters, we will tell you before it takes effect; continuing to use{" "}
        {brandName} afterwards means you accept the new terms. How we handle your personal data is explained in our{" "}
        <Link to={href("/privacy")}>Privacy Policy</Link>.
      </p>
    </LegalPage>
  );
}
