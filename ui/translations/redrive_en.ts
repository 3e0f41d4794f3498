<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US" sourcelanguage="en">
<context>
    <name>redrive::ui::AccessibleParts</name>
    <message>
        <source>Clear %1</source>
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
    <name>redrive::ui::KeysetListModel</name>
    <message>
        <source>the query failed</source>
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
    <name>redrive::ui::ReconcileController</name>
    <message numerus="yes">
        <source>%n source(s) reconcile with their provider</source>
        <translation>
            <numerusform>%n source reconcile with their provider</numerusform>
            <numerusform>%n sources reconcile with their provider</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>; the last run of %n failed.</source>
        <translation>
            <numerusform>; the last run of %n failed.</numerusform>
            <numerusform>; the last run of %n failed.</numerusform>
        </translation>
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
</context>
<context>
    <name>redrive::ui::TimeFormat</name>
    <message>
        <source>%1 local (%2)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
