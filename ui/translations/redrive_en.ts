<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US" sourcelanguage="en">
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
</TS>
