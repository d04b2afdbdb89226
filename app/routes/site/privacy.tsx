import { href, Link } from "react-router";
import { LegalPage } from "~/components/legal-page";
import { brandName } from "~/lib/constants";
import { minimumAge } from "~/lib/constants";
import { pageMeta } from "~/lib/sharing/meta";

export const meta = () =>
  pageMeta("Privacy Policy", `What personal data ${brandName} collects, why, who can see it and the choices you have.`);

export default function Privacy() {
  return (
    <LegalPage
      title="Privacy Policy"
      intro={
        <>
          This policy explains what we collect when you use {brandName}, why we collect it, who can see it and what you can do about it. We
          collect as little as we need to run a music marketplace, and we never sell your data.
        </>
      }
    >
      <h2>What we collect</h2>
      <ul>
        <li>
          <strong>Account details:</strong> your email address, a password (stored only as a secure hash), and your role as an artist or a
          fan.
        </li>
        <li>
          <strong>Profile details you choose to share:</strong> artist or user name, bio, profile picture, favourite genres, website, social
          handles and tour dates. These are public.
        </li>
        <li>
          <strong>Payout and payment settings:</strong> your PayPal email, preferred currency and withdrawal settings. Only you can see
          them.
        </li>
        <li>
          <strong>Activity:</strong> plays, downloads, follows, comments and purchases, with the time they happened.
        </li>
        <li>
          <strong>Uploads:</strong> the audio, artwork and images you upload.
        </li>
      </ul>

      <h2>Why we use it</h2>
      <ul>
        <li>To run your account, sign you in and keep it secure.</li>
        <li>To show artists how their music is doing: plays, downloads, sales and where their fans are.</li>
        <li>To show you what you recently played, who you follow and what you bought.</li>
        <li>To pay artists what they earned.</li>
        <li>To send the emails you ask for, such as a password reset link.</li>
      </ul>

      <h2>Who can see what</h2>
      <p>
        Your public profile, your comments and the artists you follow are visible to everyone. Your email address, payout details, purchases
        and listening history are private: an artist sees the sales and plays of their own tracks, never your payment details. Our
        administrators can see account information when they need to support you or keep the service safe.
      </p>

      <h2>Cookies</h2>
      <p>
        We use a small number of cookies that are strictly necessary to keep you signed in. We don't use advertising or cross-site tracking
        cookies.
      </p>

      <h2>Service providers</h2>
      <p>
        We host data and files with infrastructure providers that process them only on our instructions, and payments are handled by the
        payment provider, under its own privacy policy. We share data with authorities only when the law requires it.
      </p>

      <h2>Your choices</h2>
      <p>
        You can view and edit your profile and settings at any time from your dashboard. You can ask us for a copy of your data, or to
        delete your account and the personal data that goes with it; purchase records we are required to keep for accounting are kept only
        as long as the law says.
      </p>

      <h2>Children</h2>
      <p>
        {brandName} is not for children under {minimumAge}, as our <Link to={href("/terms")}>Terms of Use</Link> say, and we don't knowingly
        collect their data.
      </p>

      <h2>Changes</h2>
      <p>When we change this policy we update the date at the top, and we tell you about important changes before they take effect.</p>
    </LegalPage>
  );
}
