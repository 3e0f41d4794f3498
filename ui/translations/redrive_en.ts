<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US" sourcelanguage="en">
<context>
    <name>redrive::ui::AdminClient</name>
    <message>
        <source>The CA certificate file %1 cannot be read: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The CA certificate file %1 holds no PEM certificate.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The admin API at %1 gave no HTTP answer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The admin API at %1 presented a certificate this console does not trust (%2). Check the CA certificate in the profile, and that the address names the host the certificate was issued for.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing is listening at %1: the receiver&apos;s admin API is not running there, or admin_listen names another address.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The host name %1 does not resolve. Check the admin API address.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The admin API at %1 did not answer in time.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The admin API at %1 closed the connection. If it expects TLS, the address must start with https://.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The admin API at %1 could not be reached (%2).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> The server said: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The receiver cannot reach its database; try again in %1 s.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The receiver cannot reach its database; try again shortly.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> If the database went away during this action it may have been recorded: check the page before repeating it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The receiver did not finish in time; its database may be hung.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> This action may still be recorded: check the page before repeating it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The request was refused as malformed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The value of &quot;%1&quot; was refused.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The admin API rejected the token: it is wrong, revoked or expired. Ask an administrator for a new one (redrived token create).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your role does not allow this action; the attempt was recorded in the audit log.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The admin API does not know this item (or this address is not a Redrive admin API).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The item changed in the meantime.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The admin API answered HTTP %1.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::DeadLetterModel</name>
    <message>
        <source>Double-click to list these events</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(none recorded)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failure category</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Destination</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dead letters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Oldest</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Newest</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Most recent error</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::DeadLettersController</name>
    <message>
        <source>This group has no recorded failure category; open its events and replay them from there.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Preview and request a replay of this group&apos;s dead deliveries (Ctrl+R).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dead letters could not be read: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No dead letters.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%Ln dead letter(s) in %1. Press Enter or double-click a group to list its events.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln group(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
</context>
<context>
    <name>redrive::ui::DeadLettersView</name>
    <message>
        <source>Dead letters by category and destination</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replay group…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replay the selected dead-letter group</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::DestinationModel</name>
    <message>
        <source>%1 ago</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>just now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paused</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Active</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 % of %L2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>— (no attempts)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paused by %1, %2%3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Resumed by %1, %2%3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(unknown)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Named in the receiver configuration; no deliveries yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Seen in deliveries</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Named in the receiver configuration, with deliveries</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Known only from its recorded pause state</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deliveries to %1 are held until an administrator resumes it; new events still arrive and queue up.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deliveries to %1 are being sent.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%L1 pending, %L2 in flight, %L3 retrying</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deliveries that exhausted their attempts or failed permanently</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attempts started in the last hour that succeeded: %L1 of %L2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No failed attempt in the last 24 hours</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Never paused</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deliveries not yet succeeded or dead: pending, in flight and retrying</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Destination</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>State</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Backlog</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dead letters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Success (last hour)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last failure (24 h)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paused / resumed</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::DestinationsController</name>
    <message>
        <source>Destinations could not be read: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No destinations yet: none has received a delivery, and the profile names no receiver configuration.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%Ln destination(s); %1.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>%L1 paused — their deliveries wait until resumed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none paused</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> Select a destination to pause or resume it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pause destination</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Resume destination</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none is waiting now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 is waiting now</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%Ln are waiting now</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Pause deliveries to %1?

Nothing is sent to it until it is resumed; new events are still received and their deliveries wait (%2). Deliveries already in flight finish.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Resume deliveries to %1?

Its waiting deliveries are sent again at the destination&apos;s rate limit (%2).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pause %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Resume %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pausing %1 was not confirmed: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Resuming %1 was not confirmed: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 was not paused: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 was not resumed: </source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::DestinationsView</name>
    <message>
        <source>Destinations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pause…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Resume…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pause %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Resume %1…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::IncidentModel</name>
    <message>
        <source>(none recorded)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Destination</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failure category</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dead letters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Opened</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Acknowledged</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Note</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::IncidentsController</name>
    <message>
        <source>Incidents: reading…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Incidents could not be read: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No open incidents.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%Ln open incident(s), all acknowledged.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln open incident(s), %L1 not acknowledged yet. Select one and press Ctrl+K to say you are on it.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Redrive incident: %1 — %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%Ln dead letter(s) for %1 (%2) in %3. Open Dead letters to acknowledge it.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Acknowledge incident</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Acknowledge incident #%1: %Ln dead letter(s) for %2 (%3)?

Everyone sees that you are on it, with your note. You hear about it again if it grows by the receiver&apos;s threshold.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Acknowledge incident #%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Note (what you are doing about it; recorded in the audit log):</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Acknowledging incident #%1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The acknowledgement of incident #%1 was not confirmed: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Incident #%1 was not acknowledged: </source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::IncidentsView</name>
    <message>
        <source>Open incidents</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ac&amp;knowledge…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Acknowledge…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Acknowledge the selected incident with a note</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Say you are on it, with a note the next person reads (Ctrl+K).</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::NewReplayController</name>
    <message>
        <source>everything the filter matches</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No preview: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> Close this dialog and start the replay again for a fresh preview.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::OverviewController</name>
    <message>
        <source>The overview could not be read: </source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::OverviewSpan</name>
    <message>
        <source>minute</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>2 minutes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>3 minutes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>5 minutes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>10 minutes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>15 minutes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>30 minutes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>hour</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>2 hours</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>3 hours</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>6 hours</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>12 hours</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>24 hours</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>2 days</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>3 days</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>5 days</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>7 days</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>14 days</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>21 days</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>30 days</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::OverviewView</name>
    <message>
        <source>Per interval: events received, attempts succeeded and retried, deliveries dead-lettered</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failed attempts by category</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Destinations: attempt success rate (mean latency)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Overview time range</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fit to the data</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last hour</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last 24 hours</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last 7 days</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fit to the data (last %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%Ln deliver(y|ies) waiting; the oldest has waited %1.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Nothing is waiting for delivery.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>received</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>succeeded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>retried</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>dead</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>failed attempts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>attempts succeeded %</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>@value %</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::ReceiverHealthController</name>
    <message>
        <source>%1 ago</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>just now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Receivers: checking…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown durability settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%Ln request(s) refused</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>database unreachable since %1 (ongoing, %2 so far)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>database unreachable %1–%2 (%3, %4)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Receiver %1: %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Receiver %1 runs %2: acknowledged events may be lost on power failure.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No receiver has recorded a heartbeat in this database: check that the profile points at the receiver&apos;s database.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (last: %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No receiver heartbeat for %1%2: webhooks may not be recorded or delivered.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>⚠ No receiver recorded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>⚠ No receiver heartbeat for %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1Receiver %2 · heartbeat %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%1%Ln receiver(s) · newest heartbeat %2</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>%1 (redrived %2, %3): started %4, last heartbeat %5; %6 — %7%8</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>survives power loss</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NOT power-loss durable</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>; last </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>silent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No receiver has recorded a heartbeat in the last 24 hours.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Receivers: unknown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>receiver_instances could not be read: </source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::ReconcileController</name>
    <message>
        <source>Starting a reconciliation needs the admin API; this profile has none.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only operators and administrators can start a reconciliation; you are signed in as %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no role</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select a source to reconcile it now.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A reconciliation of %1 is running; it can be started again once it finishes.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Starting…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reconciliation runs could not be read: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recent runs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recent runs of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No reconciliation has run yet. A source with [sources.reconcile] in the receiver&apos;s configuration shows here after its first run.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%Ln source(s) reconcile with their provider</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>; the last run of %Ln failed.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>; none failed its last run.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The receiver refused to start a reconciliation of %1 for your role (HTTP 403). The attempt is in its audit log.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The receiver knows no source named %1 (HTTP 404): its configuration may have changed since this page was read.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The receiver did not start a reconciliation of %1 (HTTP 409): %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>one is already running, or the source does not reconcile.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Starting a reconciliation of %1 was not confirmed: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The reconciliation of %1 was not started: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reconciliation of %1 started (run #%2); this page follows it until it finishes.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reconciliation of %1 started.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::ReconcileRunModel</name>
    <message>
        <source>%1 ago</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>just now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>OK</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not run yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Running for %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(no reason recorded)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing missed (%L1 checked)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%L1 missing, all recovered</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%L1 missing, %L2 recovered</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Configured; no run yet (Run now, or wait for its schedule)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status “%1”</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Named in the receiver configuration; it has not run yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run #%1 started %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>
finished after %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>
on its schedule</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>
asked for by %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deliveries GitHub listed for the hook inside the lookback</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Events the provider listed inside the lookback</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Listed by the provider but never received by Redrive</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Missing deliveries GitHub was asked to send again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Missing events recorded from the provider&apos;s list and delivered (origin “reconciled”)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The receiver recorded no reason</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reconciliation %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Source</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Provider</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Started</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checked</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Missing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recovered</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::ReconcileView</name>
    <message>
        <source>Reconciliation by source</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run &amp;now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recent reconciliation runs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run now result</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run %1 &amp;now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run reconciliation now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run reconciliation of %1 now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ask the receiver to reconcile %1 with %2 now</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::RejectionModel</name>
    <message>
        <source>Received</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Source</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Answer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reason</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Detail</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>From</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::RejectionsController</name>
    <message>
        <source>Requests the receiver refused (bad signature, unknown source, too large, …). A run of signature failures from one source usually means its secret was rotated.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rejections could not be read: </source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::RejectionsView</name>
    <message>
        <source>Rejected requests</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::ReplayDialog</name>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replay</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replay deliveries</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Environment</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Why approval is needed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Destinations of the replay</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Destination</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Risk</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deliveries</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Include already-succeeded deliveries</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reason</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Why replay these? (required; recorded in the audit log)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ticket</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>optional, e.g. INC-1234</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type the confirmation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Asking the receiver what replaying %1 would do…</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Include %Ln already-succeeded deliver(y|ies)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>They reached their destination already; replaying sends them again and needs another operator&apos;s approval.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every selected delivery already succeeded downstream, so none is proposed. Tick the box below to replay them anyway.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 would be sent again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Needs another operator&apos;s approval because:
• %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%Ln already succeeded downstream: replaying sends them again.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln may already have been processed (outcome unknown).</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>This needs approval by another operator before anything is sent.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type &quot;%1&quot; to confirm</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::ReplayPreview</name>
    <message>
        <source>The admin API&apos;s preview had no selection_hash or count.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The admin API&apos;s replay summary is unreadable: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>replay %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Request approval to replay %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replay %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A destination is high-risk</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is a high-risk destination</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 are high-risk destinations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 already succeeded downstream</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 delivery&apos;s outcome is unknown</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%Ln deliveries&apos; outcome is unknown</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln deliver(y|ies)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
</context>
<context>
    <name>redrive::ui::ReplicaController</name>
    <message>
        <source>an unknown time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replica: waiting for the replica to show your change…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replica: replay paused · %1 behind</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replica: not streaming from the primary · last change replayed %1 ago</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replica: caught up</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replica: %1 behind</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your last change has not reached this standby after %1: the pages may not show it yet. They refresh when it arrives.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This database is a standby %1 behind the primary (warning above %2): the pages show the state of %1 ago. Actions still go to the primary.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> Replay is paused on the standby (pg_wal_replay_resume() resumes it).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> It is not streaming from the primary.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replica: state unknown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A hot standby, replayed up to WAL position %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The standby&apos;s state could not be read: </source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
