pub mod diagram;
