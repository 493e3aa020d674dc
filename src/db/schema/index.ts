export * from "./catalogue";
export * from "./users";
export * from "./community";
export * from "./localisation";
export * from "./jobs";
export * from "./webhooks";
export * from "./container-fields";
export * from "./signatures";
