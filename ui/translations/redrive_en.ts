<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US" sourcelanguage="en">
<context>
    <name>redrive::DownstreamState</name>
    <message>
        <source>No destination</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pending</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Succeeded (no reference)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Succeeded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Outcome unknown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Resolved by hand</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::SecretStore</name>
    <message>
        <source>stored</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>nothing is stored in the keychain for this profile yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no keychain is available on this desktop (the Secret Service could not be reached), so credentials cannot be remembered; nothing was written to disk</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the keychain refused access; unlock it and try again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the keychain reported an error</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::main</name>
    <message>
        <source>Connect with the named profile.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NAME</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>With --profile: open on this page once connected (%1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PAGE</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save the connection profile described by FILE (JSON, no secrets) and exit.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FILE</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Read the admin API token from standard input. With --import-profile: store it in the keychain. With --profile: use it for this run only; it is stored nowhere (for machines without a keychain).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Re-check an evidence bundle (the receiver&apos;s signature, body hash, audit hash links, checkpoint signature, bundle hash), print what was checked and exit: 0 when intact, 1 with the first problem, 2 for bad arguments.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>With --verify-evidence: the receiver key the bundle must be signed with: 64 hex digits, base64, or a file holding it, a PEM public key or a checkpoint (redrived audit checkpoint --out FILE).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>FILE|HEX</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>With --verify-evidence: the id (16 hex digits) of the receiver key the bundle must be signed with.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ID</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>redrive: cannot read %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>redrive: %1 is larger than any evidence bundle (%2 bytes)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: evidence FAILED verification: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: evidence intact (NOT signed by a receiver)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: evidence intact (signed by the pinned receiver key)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: evidence intact (signed, key not pinned)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>redrive: cannot read the token from standard input</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>redrive: --token-stdin given but standard input held no token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Redrive operations console: browse webhook events and request audited replays.
Manual: redrive(1); the receiver: redrived(8).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>redrive: --public-key and --key-id go with --verify-evidence FILE</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>redrive: --token-stdin goes with --profile NAME or --import-profile FILE</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>redrive: --page must be one of: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>redrive: one link at a time (given %1 arguments)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>redrive: the link is longer than %1 bytes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>redrive: not a link the console opens: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A redrive:// link (from a notification) to open: redrive://event/ID, incident/ID, replay/ID or destination/NAME, optionally ?profile=NAME. A console already running takes it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>redrive: the running console refused the link: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>redrive: a console is running but did not take the link within %1 seconds</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>redrive: links opened elsewhere will not reach this console: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::AccessibleParts</name>
    <message>
        <source>Clear %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
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
    <name>redrive::ui::ApprovalModel</name>
    <message>
        <source>Your own request: another operator must decide it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>expired</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replay</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Requested by</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deliveries</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reason</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ticket</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Risk</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Age</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Expires in</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::ApprovalsController</name>
    <message>
        <source>You requested this replay; another operator must decide it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select a request to see what it would do.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 would be sent again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>
Needs approval because: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>
You requested this replay; another operator must decide it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading the frozen selection…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The frozen selection could not be read: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Frozen selection: %1 shown (the first page of %2), exactly as it will be replayed if approved.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Frozen selection: %1, exactly as it will be replayed if approved.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replay requests could not be read: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No replay requests are waiting for approval.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 replay request waits for a decision. Check the effect and the frozen selection below, then approve or reject with a reason of your own.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%Ln replay requests wait for a decision. Check the effect and the frozen selection below, then approve or reject with a reason of your own.</source>
        <translation>
            <numerusform>%Ln replay requests wait for a decision. Check the effect and the frozen selection below, then approve or reject with a reason of your own.</numerusform>
            <numerusform>%Ln replay requests wait for a decision. Check the effect and the frozen selection below, then approve or reject with a reason of your own.</numerusform>
        </translation>
    </message>
    <message>
        <source>1 replay request waits for your approval</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n replay requests wait for your approval</source>
        <translation>
            <numerusform>%n replay requests wait for your approval</numerusform>
            <numerusform>%n replay requests wait for your approval</numerusform>
        </translation>
    </message>
    <message>
        <source>Approve replay</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reject replay</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replay #%1 requested by %2: %3.
Their reason: %4

%5</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Approve replay #%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reject replay #%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The approval of replay #%1 was not confirmed: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replay #%1 was not approved: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The rejection of replay #%1 was not confirmed: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replay #%1 was not rejected: </source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::ApprovalsView</name>
    <message>
        <source>Replay requests waiting for approval</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Approve…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reject…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Frozen selection of the request</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What the request would do</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Approve the selected request</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reject the selected request</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::AuditController</name>
    <message>
        <source>no signed checkpoint: the receiver has no audit key (admin.audit_key_file)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no signed checkpoint: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 cannot be written: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export audit log</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export audit evidence</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Evidence bundles (*.json)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The audit log could not be read: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no signed checkpoint: this profile has no admin API</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The receiver&apos;s checkpoint is malformed (%1): nothing in it is trusted.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The receiver&apos;s checkpoint signature does NOT verify: nothing in it is trusted.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The receiver&apos;s audit key CHANGED: this profile pinned key %1, but the checkpoint is signed by key %2. Nothing it signs is trusted until you confirm the new key with whoever runs the receiver.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the receiver&apos;s checkpoint is NOT trusted (see the warning)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The chain could not be read: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Trust a new audit key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The receiver now signs its audit checkpoints with another key. Trust it only when whoever runs the receiver confirms the key was rotated (`redrived audit checkpoint` prints its id). A key you did not expect can mean someone else is answering for the receiver.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Trust the new key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The pinned key was forgotten; the receiver&apos;s current key is pinned on this check.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No checkpoint saved: the chain is not known to be intact (see the status above).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>signed by receiver key %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>computed by this console, not signed by the receiver</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checkpoint #%1 is already saved.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checkpoint #%1 saved on this computer (%2).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exported 1 filtered audit entry to %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exported 1 audit entry to %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Exported %Ln filtered audit entries to %1.</source>
        <translation>
            <numerusform>Exported %Ln filtered audit entries to %1.</numerusform>
            <numerusform>Exported %Ln filtered audit entries to %1.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Exported %Ln audit entries to %1.</source>
        <translation>
            <numerusform>Exported %Ln audit entries to %1.</numerusform>
            <numerusform>Exported %Ln audit entries to %1.</numerusform>
        </translation>
    </message>
    <message>
        <source>Evidence was not exported: it needs a checkpoint signed by the receiver with the pinned key, and the last check had none (%1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the chain is not intact</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Building the evidence for %1 .. %2…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Evidence was not exported: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Evidence was written to %1, but it does NOT verify: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Evidence for 1 entry written to %1 (with %2). Check it anywhere with: redrive --verify-evidence FILE --key-id %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Evidence for %Ln entries written to %1 (with %2). Check it anywhere with: redrive --verify-evidence FILE --key-id %3</source>
        <translation>
            <numerusform>Evidence for %Ln entries written to %1 (with %2). Check it anywhere with: redrive --verify-evidence FILE --key-id %3</numerusform>
            <numerusform>Evidence for %Ln entries written to %1 (with %2). Check it anywhere with: redrive --verify-evidence FILE --key-id %3</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>redrive::ui::AuditModel</name>
    <message>
        <source>Seq</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>When</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Actor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Role</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Action</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Target</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reason</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hash</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::AuditView</name>
    <message>
        <source>Actor</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exact token name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Action</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exact action, e.g. replay_requested</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Target</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exact target, e.g. replay:12 or event:7</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Text in reason</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Entries whose reason contains this text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clear</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Trust new key…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save checkpoint</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export CSV…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export evidence…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Time range</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Any time</source>
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
        <source>Last 30 days</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Custom…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clear the audit filters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Audit key warning</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Trust the receiver&apos;s new audit key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Audit chain status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checking the chain…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved checkpoints</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last audit action</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save a checkpoint of the audit chain</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep the chain&apos;s current head on this computer; later refreshes prove nothing up to it changed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export the filtered audit entries as CSV</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export audit evidence for the time range</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The entries of the chosen time range, linked to the receiver&apos;s signed checkpoint, with a README on checking them with redrive --verify-evidence</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Audit log entries</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::ChainStatusText</name>
    <message>
        <source>Chain broken at #%1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Chain intact to #%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · checkpoint #%1 verified (key %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · the receiver&apos;s checkpoint #%1 does NOT match: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No saved checkpoints. &quot;Save checkpoint&quot; keeps the chain&apos;s head on this computer, so a later rewrite or a cut-off tail is caught.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved checkpoint #%1 (taken %2): the tail was cut off, first missing entry #%3 — %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved checkpoint #%1 (taken %2): changed, first changed entry #%3 — %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing changed up to the saved checkpoint #%1 (taken %2).</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Nothing changed up to any of the %n saved checkpoint(s) (latest #%1, taken %2).</source>
        <translation>
            <numerusform>Nothing changed up to any of the %n saved checkpoint (latest #%1, taken %2).</numerusform>
            <numerusform>Nothing changed up to any of the %n saved checkpoints (latest #%1, taken %2).</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>redrive::ui::ConnectionDialog</name>
    <message>
        <source>The API token was handed over for this run only: it is used for this connection and stored nowhere.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Profile name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>e.g. production-eu</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Environment</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>production, staging, …</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Database file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PostgreSQL host</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PostgreSQL database</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PostgreSQL user</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PostgreSQL password</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>leave empty to use the keychain</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Admin API address</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CA certificate file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>optional PEM file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Receiver configuration file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>optional copy of redrived.toml, for projected retry times</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Admin API token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remember the password and token in the system keychain</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connect</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Warn when a standby is behind by more than (seconds)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>seconds, when the database is a hot standby</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connect to a Redrive receiver</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Profile</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Database kind</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SQLite file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PostgreSQL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PostgreSQL TLS mode (sslmode)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TLS warning</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Receiver database</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>SQLite databases (*.db *.sqlite);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CA certificate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PEM certificates (*.pem *.crt);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Host</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Port</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Database</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>User</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Password</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TLS (sslmode)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Standby lag warning (s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delete</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Admin API</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>API token</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Receiver config</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checking the keychain…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> No keychain is available on this desktop.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A token for this profile is stored in the keychain.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Secrets you type are kept in the system keychain.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No token is stored for this profile yet; paste it above.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No keychain is available on this desktop. Passwords and tokens you type are used for this session only and are not stored anywhere.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Details: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Environment colour</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::ConnectionErrors</name>
    <message>
        <source>There is no database file at %1. Check the path, and that the receiver has started at least once (it creates the file).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not a SQLite database. Choose the file named in the receiver&apos;s [storage] url.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The database file %1 cannot be opened for reading. Check that your user may read it and the folder it is in (the WAL files live beside it).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The database is busy. Try again in a moment.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The database file %1 could not be read.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PostgreSQL at %1 rejected the password for user &quot;%2&quot;. Enter the password again (it replaces the one in the keychain).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PostgreSQL at %1 asks for a password and none is stored for this profile. Enter it in the password field.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The host name &quot;%1&quot; does not resolve. Check the spelling, or use an IP address.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing accepts connections at %1. PostgreSQL is not running there, listens on another port, or a firewall refuses the connection.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 could not be reached in time. The host may be down, or a VPN or firewall is in the way.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server at %1 does not offer TLS, but the profile requires it (sslmode=%2).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The TLS connection to %1 failed: the server&apos;s certificate does not match the CA certificate or host name in the profile (sslmode=%2).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server at %1 has no database named &quot;%2&quot;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server at %1 has no user named &quot;%2&quot;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server at %1 does not accept this user from this machine (pg_hba.conf), or only over TLS. Ask the database administrator.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>User &quot;%1&quot; may not read the Redrive tables. Grant it SELECT on the schema.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The connection to PostgreSQL at %1 failed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The schema version of the database could not be read.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not a Redrive database, or it was never migrated. Run `redrived --config FILE migrate` for it first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The database uses schema version %1, older than this console&apos;s %2. Upgrade the receiver and run `redrived --config FILE migrate`.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The database uses schema version %1, newer than this console understands (%2). Install the console that matches the receiver&apos;s version.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::ConnectionProfile</name>
    <message>
        <source>Give the profile a name.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name the environment (for example production or staging).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose the receiver&apos;s SQLite database file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Enter the PostgreSQL host name.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The port must be between 1 and 65535.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Enter the database name.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>sslmode must be one of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The admin API address must look like https://host:8081</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>http:// would send the API token unencrypted to %1. Plain HTTP is accepted only for this machine (localhost, 127.0.0.1, ::1); use https://%1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The receiver configuration file %1 cannot be read.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The CA certificate file %1 cannot be read.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>sslmode=verify-ca checks who issued the certificate but does not check that it names %1: any certificate from that CA is accepted. Prefer verify-full.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the host</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>sslmode=%1 does not check the server&apos;s certificate: a machine in the middle can read the database password and every row. Use verify-full (with the CA certificate) unless the network path is trusted.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The replica lag warning must be a whole number of seconds from 1 to %1 (24 hours); the default is %2.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::Connector</name>
    <message>
        <source>Reading credentials from the keychain…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Opening %1 read-only…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The receiver configuration could not be used for retry projections: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checking the schema version…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The admin API needs a token and none is stored for this profile. Paste the token an administrator created for you (redrived token create).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Asking the admin API who you are…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The address answered, but not like a Redrive admin API (whoami had no name and role).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saving credentials in the keychain…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connected, but the credentials were not remembered: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::ConsoleController</name>
    <message>
        <source>no admin API (read-only)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>read-only (no admin API)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replay #%1 requested; it waits for an operator&apos;s approval.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replay #%1 requested (%2).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 paused: its deliveries wait until it is resumed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 resumed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reconciliation of %1 started; the Reconciliation page follows it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The database can be reached again (it could not for %1); the pages were refreshed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Marked %Ln dead letter(s) resolved; they will not be sent again.</source>
        <translation>
            <numerusform>Marked %Ln dead letter resolved; they will not be sent again.</numerusform>
            <numerusform>Marked %Ln dead letters resolved; they will not be sent again.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>redrive::ui::DatabaseWatch</name>
    <message>
        <source>The database cannot be reached since %1. The pages show what was read before then and may be out of date (stale). The console reconnects by itself: next attempt in %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The database cannot be reached since %1 (%3). The pages show what was read before then and may be out of date (stale). The console reconnects by itself: next attempt in %2.</source>
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
        <translation>
            <numerusform>%Ln dead letter in %1. Press Enter or double-click a group to list its events.</numerusform>
            <numerusform>%Ln dead letters in %1. Press Enter or double-click a group to list its events.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln group(s)</source>
        <translation>
            <numerusform>%Ln group</numerusform>
            <numerusform>%Ln groups</numerusform>
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
    <message>
        <source>Mark group resolved…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mark the selected dead-letter group resolved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The group&apos;s dead letters were handled another way: they leave the dead letters and are never sent again (Ctrl+Shift+M).</source>
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
    <message>
        <source>Paused until %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deliveries to %1 are held until %2, when the receiver resumes it by itself (or an administrator resumes it sooner); new events still arrive and queue up.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Circuit open, next probe %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Circuit open</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The circuit breaker of %1 opened %2: %3
Its deliveries are held (no attempts spent, no dead letters); one probe is sent at a time, and the first that succeeds closes the circuit. An administrator may close it sooner.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(time unknown)</source>
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
        <translation>
            <numerusform>%Ln destination; %1.</numerusform>
            <numerusform>%Ln destinations; %1.</numerusform>
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
        <translation>
            <numerusform>%Ln are waiting now</numerusform>
            <numerusform>%Ln are waiting now</numerusform>
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
    <message>
        <source>R&amp;esume:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>When someone resumes it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>In 1 hour</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>In 4 hours</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>At 06:00 (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%Ln circuit(s) open (%1): deliveries held, probing until the destination answers.</source>
        <translation>
            <numerusform>%Ln circuit open (%1): deliveries held, probing until the destination answers.</numerusform>
            <numerusform>%Ln circuits open (%1): deliveries held, probing until the destination answers.</numerusform>
        </translation>
    </message>
    <message>
        <source>Close circuit</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Close the circuit of %1 without waiting for a probe?

Its held deliveries (%Ln) are sent again at the destination&apos;s rate; if it still fails, the circuit opens again after its failures.</source>
        <translation>
            <numerusform>Close the circuit of %1 without waiting for a probe?

Its held deliveries (%Ln) are sent again at the destination&apos;s rate; if it still fails, the circuit opens again after its failures.</numerusform>
            <numerusform>Close the circuit of %1 without waiting for a probe?

Its held deliveries (%Ln) are sent again at the destination&apos;s rate; if it still fails, the circuit opens again after its failures.</numerusform>
        </translation>
    </message>
    <message>
        <source>Close circuit of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Closing the circuit of %1 was not confirmed: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The circuit of %1 was not closed: </source>
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
    <message>
        <source>Close circuit…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Send the deliveries an open circuit holds without waiting for a probe</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Close circuit of %1…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::DetailController</name>
    <message>
        <source>Export evidence for event %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>JSON files (*.json)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The event could not be read: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Event %1 no longer exists (retention may have removed it).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saving…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The note was not confirmed: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The note was not saved: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checking against the receiver&apos;s schema…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The revalidation was not confirmed: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The event was not revalidated: </source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>It passes the schema now: released from quarantine with %Ln deliver(y|ies).</source>
        <translation>
            <numerusform>It passes the schema now: released from quarantine with %Ln delivery.</numerusform>
            <numerusform>It passes the schema now: released from quarantine with %Ln deliveries.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Still invalid against the receiver&apos;s schema (%Ln error(s)); the list shows them as checked now.</source>
        <translation>
            <numerusform>Still invalid against the receiver&apos;s schema (%Ln error); the list shows them as checked now.</numerusform>
            <numerusform>Still invalid against the receiver&apos;s schema (%Ln errors); the list shows them as checked now.</numerusform>
        </translation>
    </message>
    <message>
        <source>Asking the receiver…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The reveal was not confirmed: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The original was not revealed: </source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::EnvironmentBanner</name>
    <message>
        <source>Connected to the %1 environment (profile &quot;%2&quot;)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::EventDetailView</name>
    <message>
        <source>Replay this delivery…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add note</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export evidence…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deliveries</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Destination</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Downstream</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attempts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Next attempt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reference</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last failure</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replay this delivery</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Summary</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>#</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Started</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Trigger</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>HTTP</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Duration</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Category</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Explanation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select an attempt to see the start of the destination&apos;s response.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Payload as a tree</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Payload as text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attempt response</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Notes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Request headers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New note</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Notes and audit entries</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy payload</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Payload</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Header</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Headers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add a note for the next person looking at this event</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>When</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Who</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Action</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Target</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reason</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save one JSON file, built and signed by the receiver, with this event, its body, deliveries, attempts, notes, the audit entries that touched it and a signed checkpoint of the audit log. The export is recorded in the audit log; redrive --verify-evidence FILE re-checks the file anywhere.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Audit trail</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Notes &amp;&amp; audit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No event selected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select an event in the list to see its deliveries, attempts and payload.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Event %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This delivery is on its way already; there is nothing to replay yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Preview and request a replay of the selected delivery (Ctrl+R in the list).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Event %1 · %2 · %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(no type)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Provider event ID</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>  (derived from the body digest: the provider sent no id)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Received</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Occurred</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Times seen</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%L1 (last %2; duplicates were recorded, not processed again)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Origin</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Verified by</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>— (read from the provider&apos;s API, not signed)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>— (not verified)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The secret whose signature matched; with several secrets configured this shows which one.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clock skew</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%L1 ms (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>provider&apos;s timestamp behind ours</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>provider&apos;s timestamp ahead of ours</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>— (the scheme carries no timestamp)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Body</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%Ln byte(s), %1, SHA-256 %2</source>
        <translation>
            <numerusform>%Ln byte, %1, SHA-256 %2</numerusform>
            <numerusform>%Ln bytes, %1, SHA-256 %2</numerusform>
        </translation>
    </message>
    <message>
        <source>no content type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>From</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Legal hold</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>yes — retention will not delete this event</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (in %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (overdue by %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The last request was fully sent but no answer came in time: the destination may have acted on it. A replay could apply it twice.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dead-lettered: %1%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Idempotency key %1 (the same on every attempt and replay)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No route matched this event, so it was not delivered anywhere.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>
scheduled for %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>replay #%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · outcome unknown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No attempts yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(the destination sent no body)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The body is %1; shown as text only.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No notes yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mark resolved…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mark this dead letter resolved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>It was handled another way: it leaves the dead letters and is never sent again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This dead letter was resolved by hand; a replay would act twice.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not needed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>handled manually</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: resolved by %2 (%3) %4 as %5: %6</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (ticket %1)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::EventTableModel</name>
    <message>
        <source> (ref %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> — the request may have been processed; a replay could act twice</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No route matched this event; nothing was delivered.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ID</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Received</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Source</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Provider ID</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attempts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last failure</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Downstream</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%1
Received %Ln time(s) (duplicates were not processed again)</source>
        <translation>
            <numerusform>%1
Received %Ln time (duplicates were not processed again)</numerusform>
            <numerusform>%1
Received %Ln times (duplicates were not processed again)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>redrive::ui::EventsController</name>
    <message>
        <source>The events could not be read: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy event ID</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replay…</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>About %Ln event(s) (counting…) (matches|match) the filter</source>
        <translation>
            <numerusform>About %Ln event (counting…) matches the filter</numerusform>
            <numerusform>About %Ln events (counting…) match the filter</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>About %Ln event(s) (counting…)</source>
        <translation>
            <numerusform>About %Ln event (counting…)</numerusform>
            <numerusform>About %Ln events (counting…)</numerusform>
        </translation>
    </message>
    <message>
        <source>%L1+ events (counting…) match the filter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%L1+ events (counting…)</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%Ln event(s) (matches|match) the filter</source>
        <translation>
            <numerusform>%Ln event matches the filter</numerusform>
            <numerusform>%Ln events match the filter</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln event(s)</source>
        <translation>
            <numerusform>%Ln event</numerusform>
            <numerusform>%Ln events</numerusform>
        </translation>
    </message>
    <message>
        <source>Mark dead letters resolved…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>None of the selected events has a dead letter to mark resolved.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::EventsView</name>
    <message>
        <source>Replay selected…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replay all matching…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Events</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Preview and request a replay of the selected events&apos; deliveries (Ctrl+R)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Preview and request a replay of every event the filter matches, not just the visible ones</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replay %L1 selected…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>More than %L1 new events — click to reload</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%Ln new event(s) — click to show</source>
        <translation>
            <numerusform>%Ln new event — click to show</numerusform>
            <numerusform>%Ln new events — click to show</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>redrive::ui::EvidenceExport</name>
    <message>
        <source>the receiver signs no evidence (admin.audit_key_file is not set in its configuration).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the receiver has no event %1. Does this profile read the receiver&apos;s own database?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the receiver does not offer evidence bundles (an older redrived?).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Evidence was not exported: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Asking the receiver to build and sign the evidence for event %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the receiver&apos;s answer is not an evidence bundle for event %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checking the signed bundle and writing %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 cannot be written: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Evidence for event %1 was written to %2, but it does NOT verify: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Evidence for event %1 written to %2, signed by receiver key %3 (bundle SHA-256 %4…). Check it anywhere with: redrive --verify-evidence FILE --key-id %3</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::FilterBar</name>
    <message>
        <source>Source</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type (prefix*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Destination</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save view…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clear</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Origin filter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Any origin</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Webhooks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reconciled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reconciled: events a reconciliation run recovered from the provider&apos;s API because their webhook never arrived</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Any time</source>
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
        <source>Custom…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>From (local time)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Until (local time)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Source filter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Event type filter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Destination filter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search events</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search event ID, provider ID, downstream reference or key, e.g. order:1042 (Ctrl+F)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved views</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save view</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name of this view:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Any status</source>
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
        <translation>
            <numerusform>%Ln open incident, all acknowledged.</numerusform>
            <numerusform>%Ln open incidents, all acknowledged.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln open incident(s), %L1 not acknowledged yet. Select one and press Ctrl+K to say you are on it.</source>
        <translation>
            <numerusform>%Ln open incident, %L1 not acknowledged yet. Select one and press Ctrl+K to say you are on it.</numerusform>
            <numerusform>%Ln open incidents, %L1 not acknowledged yet. Select one and press Ctrl+K to say you are on it.</numerusform>
        </translation>
    </message>
    <message>
        <source>Redrive incident: %1 — %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%Ln dead letter(s) for %1 (%2) in %3. Open Dead letters to acknowledge it.</source>
        <translation>
            <numerusform>%Ln dead letter for %1 (%2) in %3. Open Dead letters to acknowledge it.</numerusform>
            <numerusform>%Ln dead letters for %1 (%2) in %3. Open Dead letters to acknowledge it.</numerusform>
        </translation>
    </message>
    <message>
        <source>Acknowledge incident</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Acknowledge incident #%1: %Ln dead letter(s) for %2 (%3)?

Everyone sees that you are on it, with your note. You hear about it again if it grows by the receiver&apos;s threshold.</source>
        <translation>
            <numerusform>Acknowledge incident #%1: %Ln dead letter for %2 (%3)?

Everyone sees that you are on it, with your note. You hear about it again if it grows by the receiver&apos;s threshold.</numerusform>
            <numerusform>Acknowledge incident #%1: %Ln dead letters for %2 (%3)?

Everyone sees that you are on it, with your note. You hear about it again if it grows by the receiver&apos;s threshold.</numerusform>
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
    <name>redrive::ui::JsonTreeModel</name>
    <message>
        <source>null</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>boolean</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>number</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>string</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>array</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>object</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not JSON (%1 at byte %L2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::KeyLinks</name>
    <message>
        <source>Business keys</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keys:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search events with %1 %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Find every event whose %1 is %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is redacted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The source redacts this value; searching by it still works.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::KeysetListModel</name>
    <message>
        <source>the query failed</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::LinkBanner</name>
    <message>
        <source>Dismiss</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Opened link</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Disconnects and connects with the profile the link names</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dismiss the link message</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::LinkOpener</name>
    <message>
        <source>event %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>incident #%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>replay #%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>destination %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Opens %1 once connected.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Opens %1 once connected with profile %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The link to %1 names the profile &quot;%2&quot;, which this console does not have. Connect with the profile of that receiver to open it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connect to open %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connecting with profile %1 to open %2…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The link to %1 is for profile %2, but the console is connected with %3; it was not opened here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Switch to %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The link to %1 is for profile &quot;%2&quot;, which this console does not have (it is connected with %3); it was not opened here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Event %1 is not in this receiver&apos;s database (profile %2).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Incident #%1 is not open in this receiver&apos;s database (profile %2): it was resolved, or never opened there.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replay #%1 cannot be shown: replay requests are read through the admin API, and this profile (%2) has none or its role may not read them.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replay #%1 is not among the newest replay requests of this receiver (profile %2); scroll the list for older ones.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replay #%1 is not in this receiver&apos;s database (profile %2).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Destination %1 is not known to this receiver (profile %2).</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::LocaleFormat</name>
    <message numerus="yes">
        <source>%Ln byte(s)</source>
        <translation>
            <numerusform>%Ln byte</numerusform>
            <numerusform>%Ln bytes</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 h</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 d %2 h</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 d</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::MainWindow</name>
    <message>
        <source>Receiver warning</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replica warning</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Database warning</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Connection</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Connect…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Disconnect</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Overview</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Events</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dead letters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rejected requests</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replays</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Approvals</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Audit log</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Destinations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reconciliation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Find event…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Refresh</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show times in &amp;UTC</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Keyboard shortcuts…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Overview</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Events</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Dead letters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Rejected requests</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Re&amp;plays</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Approvals</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A&amp;udit log</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Des&amp;tinations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reconc&amp;iliation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not connected — Connection › Connect… (Ctrl+Shift+O)</source>
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
    <name>redrive::ui::OriginMark</name>
    <message>
        <source>%1 · reconciled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1, recovered by reconciliation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>recovered by reconciliation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>webhook</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Its webhook never reached Redrive: a reconciliation run found it in the provider&apos;s API and recorded it as if it had arrived, then routed and delivered it. A webhook arriving for it later is a duplicate.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Arrived as a webhook from the provider.</source>
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
        <translation>
            <numerusform>%Ln delivery waiting; the oldest has waited %1.</numerusform>
            <numerusform>%Ln deliveries waiting; the oldest has waited %1.</numerusform>
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
    <name>redrive::ui::ProfileImport</name>
    <message>
        <source>the profile file is not a JSON object (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;%1&quot;: secrets do not belong in a profile file; pass the token on standard input with --token-stdin</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;%1&quot;: unknown key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;%1&quot;: must be a string</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;colour&quot;: not a colour (use #rrggbb)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>give exactly one of &quot;sqlite&quot; or &quot;postgresql&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>redrive: cannot import the profile: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>redrive: profile &quot;%1&quot; saved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>redrive: profile &quot;%1&quot; saved; its API token is in the keychain</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>redrive: profile &quot;%1&quot; saved, but the API token was NOT stored: %2 (%3). The console will ask for it when connecting.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::Prompter</name>
    <message>
        <source>Reason (recorded in the audit log):</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Environment</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reason</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Reason</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::RangeEdits</name>
    <message>
        <source>From (local time)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Until (local time)</source>
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
        <translation>
            <numerusform>%Ln request refused</numerusform>
            <numerusform>%Ln requests refused</numerusform>
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
        <translation>
            <numerusform>%1%Ln receiver · newest heartbeat %2</numerusform>
            <numerusform>%1%Ln receivers · newest heartbeat %2</numerusform>
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
    <message numerus="yes">
        <source>Circuit open for %1: deliveries held while the receiver probes (Destinations page).</source>
        <translation>
            <numerusform>Circuit open for %1: deliveries held while the receiver probes (Destinations page).</numerusform>
            <numerusform>Circuit open for %1: deliveries held while the receiver probes (Destinations page).</numerusform>
        </translation>
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
        <source>; the last run of %Ln failed.</source>
        <translation>
            <numerusform>; the last run of %Ln failed.</numerusform>
            <numerusform>; the last run of %Ln failed.</numerusform>
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
    <message numerus="yes">
        <source>%Ln source(s) reconcile(s|) with their provider</source>
        <translation>
            <numerusform>%Ln source reconciles with their provider</numerusform>
            <numerusform>%Ln sources reconcile with their provider</numerusform>
        </translation>
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
    <name>redrive::ui::RedactionBar</name>
    <message>
        <source>Reveal original…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reveal the original payload</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Operators and auditors may see the original values, with a reason; the reveal is recorded in the audit log.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Redacted for every reader but the destinations: %1 (shown as &quot;[redacted]&quot;).</source>
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
        <translation>
            <numerusform>Include %Ln already-succeeded delivery</numerusform>
            <numerusform>Include %Ln already-succeeded deliveries</numerusform>
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
        <translation>
            <numerusform>%Ln already succeeded downstream: replaying sends them again.</numerusform>
            <numerusform>%Ln already succeeded downstream: replaying sends them again.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln may already have been processed (outcome unknown).</source>
        <translation>
            <numerusform>%Ln may already have been processed (outcome unknown).</numerusform>
            <numerusform>%Ln may already have been processed (outcome unknown).</numerusform>
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
    <name>redrive::ui::ReplayHistoryController</name>
    <message>
        <source>Replay requests, newest first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select a replay request to see its deliveries.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replay requests could not be read: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No replay requests yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replay requests, newest first. Select one to see its deliveries; Enter on a delivery opens its event at the replay&apos;s attempt.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replay #%1 could not be read: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>More deliveries of replay #%1 could not be read: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replay #%1 · %2
Requested by %3: %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (ticket %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>
Approved by %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>
Approved by %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delivery %1 no longer exists (retention may have removed it).</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::ReplayItem</name>
    <message>
        <source>not sent yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>queued for delivery</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>succeeded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>skipped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>skipped: %1</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::ReplayItemsModel</name>
    <message>
        <source>Press Enter or double-click to open event %1 at this replay&apos;s attempt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The delivery no longer exists (retention may have removed it)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>When the selection was frozen</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>As it is now (the receiver no longer keeps the frozen flag)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>yes — may have acted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Delivery</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Event</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Destination</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status at request</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replay outcome</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status at freeze</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Outcome unknown</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::ReplayListModel</name>
    <message>
        <source>%L1 succeeded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%L1 failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%L1 skipped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>1 delivery</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%Ln deliveries</source>
        <translation>
            <numerusform>%Ln deliveries</numerusform>
            <numerusform>%Ln deliveries</numerusform>
        </translation>
    </message>
    <message>
        <source>waiting for approval</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>approved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>executing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>completed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>halted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rejected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>expired</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>waiting for approval: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>approved: %1 about to start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>approved by %1: %2 about to start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>executing: %L1 of %L2 sent · %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>completed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>halted: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>too many of its first attempts failed; %L1 not sent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rejected by %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>expired: it was not approved or started in time; nothing was sent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not sent yet: waiting their turn or queued for delivery</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The replay attempt finished (succeeded or failed)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not replayed: the delivery vanished, was in flight or was queued by another replay when its turn came</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replay</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Requested by</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Decided by</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reason</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ticket</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deliveries</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Queued</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Succeeded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Skipped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Requested</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Decided</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Finished</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Outcome</source>
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
        <translation>
            <numerusform>%Ln deliveries&apos; outcome is unknown</numerusform>
            <numerusform>%Ln deliveries&apos; outcome is unknown</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln deliver(y|ies)</source>
        <translation>
            <numerusform>%Ln delivery</numerusform>
            <numerusform>%Ln deliveries</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>redrive::ui::ReplaysView</name>
    <message>
        <source>Refresh</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replay requests</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deliveries of the selected replay</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open event</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Outcome of the selected replay</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Refresh replay requests</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reload the replay requests (F5)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open the selected delivery&apos;s event</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the event on the Events page, at this replay&apos;s attempt (Enter)</source>
        <translation type="unfinished"></translation>
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
<context>
    <name>redrive::ui::ResolveController</name>
    <message numerus="yes">
        <source>%Ln not a dead letter</source>
        <translation>
            <numerusform>%Ln not a dead letter</numerusform>
            <numerusform>%Ln not a dead letter</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln queued by a replay</source>
        <translation>
            <numerusform>%Ln queued by a replay</numerusform>
            <numerusform>%Ln queued by a replay</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln selected deliver(y|ies)</source>
        <translation>
            <numerusform>%Ln selected delivery</numerusform>
            <numerusform>%Ln selected deliveries</numerusform>
        </translation>
    </message>
    <message>
        <source>the deliveries the filter matches</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The receiver did not confirm it in time; it may still be recorded. Look at the deliveries before trying again: </source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::ResolveDialog</name>
    <message>
        <source>&amp;Handled manually: someone did what the destination would have done</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Not needed: nothing has to happen at the destination</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mark resolved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mark dead letters resolved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Environment</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What will be resolved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Handled manually</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not needed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reason</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What was done instead? (required; recorded in the audit log)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ticket</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>optional, e.g. SUP-1234</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Problem</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Resolution</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Reason</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Ticket</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Asking the receiver which of %1 are dead letters…</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%Ln dead letter(s) will be marked resolved. They leave the dead letters and their incident, and no replay will send them again.</source>
        <translation>
            <numerusform>%Ln dead letter will be marked resolved. They leave the dead letters and their incident, and no replay will send them again.</numerusform>
            <numerusform>%Ln dead letters will be marked resolved. They leave the dead letters and their incident, and no replay will send them again.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%Ln selected deliver(y|ies) left as they are: %1.</source>
        <translation>
            <numerusform>%Ln selected delivery left as they are: %1.</numerusform>
            <numerusform>%Ln selected deliveries left as they are: %1.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Mark %Ln resolved</source>
        <translation>
            <numerusform>Mark %Ln resolved</numerusform>
            <numerusform>Mark %Ln resolved</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>redrive::ui::RevealDialog</name>
    <message>
        <source>&amp;Reveal</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reveal the original of event %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The original body carries the values this source redacts. Say why you need it: the reason and your name go into the audit log. The original is shown here only and is not kept.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rea&amp;son:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reason for revealing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reveal the original</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Original payload</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The reason is %1 characters; at most %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The original, as the destinations received it. This reveal is in the audit log.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::ScheduleNote</name>
    <message>
        <source>%1: attempt %2 is due %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> The receiver configuration has no destination of that name, so the attempts after it cannot be projected.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> Only the next attempt is known: add the receiver&apos;s configuration file to the profile to see the projected remaining schedule.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>#%1 ≈ %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> Then, if it keeps failing: </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> Dead letter after attempt %1, around %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (between %1 and %2 with jitter)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::ShortcutsDialog</name>
    <message>
        <source>%1 menu</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>In %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Everywhere</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keyboard shortcuts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keys</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Does</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Where</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Alt and the underlined letter opens a page or moves to a field. Tab and Shift+Tab move between controls; in a list, the arrow keys choose a row and Menu opens its actions.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Close</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::StatusPalette</name>
    <message>
        <source>succeeded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>dead</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>retrying</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>in flight</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>pending</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no route</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>invalid</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Success</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>HTTP retryable</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>HTTP permanent</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Redirect</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Timeout</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connection refused</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Connection reset</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>DNS</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TLS</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Blocked address</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Invalid URL</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Integrity</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lease expired</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Network</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>resolved</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::TimeFormat</name>
    <message>
        <source>%1 local (%2)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>redrive::ui::ValidationPanel</name>
    <message>
        <source>Revalidate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Schema validation errors</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Where in the body (a JSON pointer) and why the event does not match its schema</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Where</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Revalidate this event</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check the event again against the schema the receiver has now; if it passes it leaves quarantine and is delivered</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(the whole body)</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Quarantined: the body does not match its schema (%Ln error(s)). It is stored and not delivered.</source>
        <translation>
            <numerusform>Quarantined: the body does not match its schema (%Ln error). It is stored and not delivered.</numerusform>
            <numerusform>Quarantined: the body does not match its schema (%Ln errors). It is stored and not delivered.</numerusform>
        </translation>
    </message>
</context>
</TS>
