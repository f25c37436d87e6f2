//! End-to-end tests: the built app in its real window, driven through WebDriver.
//!
//! One test binary (one link of the app's dependencies, not one per file); each module
//! is a part of the app. They share fixed WebDriver ports, so run them one at a time:
//! `make e2e`.

mod support;

mod access;
mod app;
mod browse;
mod camera;
mod connect;
mod counter;
mod customer;
mod demo;
mod desktop;
mod events;
mod fuzz;
mod kiosk;
mod layout;
mod manager;
mod messages;
mod offline;
mod people;
mod points;
mod queue;
mod receipts;
mod restart;
mod screens;
mod shifts;
mod update;
mod verify;
mod zoom;
